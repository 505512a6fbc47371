package tui

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/wardhq/ward/internal/event"
)

// maxFrame bounds one Server-Sent Events line and one event's data.
const maxFrame = 256 << 10

// readSSE reads a Server-Sent Events stream of event.Event JSON from r and
// calls fn for each event, until r ends or fails. It returns the last event
// id seen (the "id:" field) with the error; io.EOF means the stream ended
// cleanly. An event whose data is not an Event is skipped; a line or an
// event longer than maxFrame ends the stream with an error.
func readSSE(r io.Reader, lastID string, fn func(event.Event)) (string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), maxFrame)
	var data bytes.Buffer
	var kind string
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			if data.Len() > 0 {
				var e event.Event
				if err := json.Unmarshal(data.Bytes(), &e); err == nil {
					if e.Kind == "" {
						e.Kind = event.Kind(kind)
					}
					fn(e)
				}
			}
			data.Reset()
			kind = ""
			continue
		}
		if line[0] == ':' {
			continue // a comment: keep-alive
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "data":
			if data.Len()+len(value)+1 > maxFrame {
				return lastID, fmt.Errorf("event stream: an event exceeds %d bytes", maxFrame)
			}
			if data.Len() > 0 {
				data.WriteByte('\n')
			}
			data.Write(value)
		case "event":
			kind = string(value)
		case "id":
			if !bytes.ContainsRune(value, 0) {
				lastID = string(value)
			}
		}
	}
	if err := sc.Err(); err != nil {
		return lastID, fmt.Errorf("event stream: %w", err)
	}
	return lastID, io.EOF
}
