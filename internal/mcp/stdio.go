package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// RunStdio serves one MCP session over in and out (newline-delimited
// JSON-RPC) until in ends or ctx is done; either is a clean end (nil).
// When in ends, the calls read before its end are answered first, so a
// client may write its requests and close its side (ward mcp <
// calls.jsonl); when ctx ends, calls in flight are cancelled. A malformed
// message, or one over MaxMessageBytes, ends the session (usually with an
// error).
func (s *Server) RunStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	d := &drain{ctx: ctx, in: in, out: out, wrote: make(chan struct{}, 1)}
	t := &sdk.IOTransport{Reader: io.NopCloser(readerOf{d}), Writer: writerOf{d}, MaxLineLength: MaxMessageBytes}
	ss, err := s.srv.Connect(ctx, t, nil)
	if err != nil {
		return fmt.Errorf("mcp: stdio: %w", err)
	}
	ended := make(chan error, 1)
	go func() { ended <- ss.Wait() }()
	select {
	case err = <-ended:
	case <-ctx.Done():
		ss.Close()
		<-ended
		return nil
	}
	if err != nil {
		return fmt.Errorf("mcp: stdio: %w", err)
	}
	return nil
}

// drainQuiet bounds the wait for answers at the end of the input: it ends
// when nothing was written for this long (calls run within their tick
// budgets, 15 s at most; a call the SDK never answers must not keep the
// process alive).
const drainQuiet = 30 * time.Second

// drain holds back the end of a stdio session's input until every call
// read before it is answered: the SDK cancels the calls in flight when its
// input ends. It counts the calls read (messages with an id and a method)
// against the responses written (an id and no method).
type drain struct {
	ctx context.Context
	in  io.Reader
	out io.Writer

	mu       sync.Mutex
	pending  int
	inLine   []byte // the input line read so far
	outLine  []byte // the output line written so far
	overlong bool   // the input line outgrew MaxMessageBytes: the SDK ends the session
	wrote    chan struct{}
}

type readerOf struct{ d *drain }

func (r readerOf) Read(p []byte) (int, error) {
	d := r.d
	n, err := d.in.Read(p)
	d.mu.Lock()
	d.inLine = d.lines(d.inLine, p[:n], +1)
	d.mu.Unlock()
	if err == io.EOF && n > 0 {
		return n, nil // the end comes with the next read, once these bytes are handled
	}
	if err == io.EOF {
		d.wait()
	}
	return n, err
}

type writerOf struct{ d *drain }

func (w writerOf) Write(p []byte) (int, error) {
	d := w.d
	n, err := d.out.Write(p)
	d.mu.Lock()
	d.outLine = d.lines(d.outLine, p[:n], -1)
	d.mu.Unlock()
	select {
	case d.wrote <- struct{}{}:
	default:
	}
	return n, err
}

func (w writerOf) Close() error { return nil }

// wait returns when no call is pending, when nothing was written for
// drainQuiet, or when ctx is done.
func (d *drain) wait() {
	quiet := time.NewTimer(drainQuiet)
	defer quiet.Stop()
	for {
		d.mu.Lock()
		done := d.pending <= 0 || d.overlong
		d.mu.Unlock()
		if done {
			return
		}
		select {
		case <-d.wrote:
			quiet.Reset(drainQuiet)
		case <-quiet.C:
			return
		case <-d.ctx.Done():
			return
		}
	}
}

// lines appends p to the partial line buf, counts the complete lines that
// are calls (sign +1, on input) or responses (sign -1, on output), and
// returns what is left of the last line. d.mu is held.
func (d *drain) lines(buf, p []byte, sign int) []byte {
	for len(p) > 0 {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			if len(buf)+len(p) > MaxMessageBytes {
				d.overlong = d.overlong || sign > 0
				return buf[:0]
			}
			return append(buf, p...)
		}
		line := p[:i]
		if len(buf) > 0 {
			line = append(buf, line...)
			buf = buf[:0]
		}
		d.pending += sign * counts(line, sign)
		p = p[i+1:]
	}
	return buf
}

// counts reports whether line is a call (sign > 0) or a response (sign
// < 0): 1 if so, 0 otherwise.
func counts(line []byte, sign int) int {
	var m struct {
		ID     json.RawMessage `json:"id"`
		Method *string         `json:"method"`
	}
	if json.Unmarshal(line, &m) != nil || len(m.ID) == 0 || string(m.ID) == "null" {
		return 0
	}
	if (m.Method != nil) == (sign > 0) {
		return 1
	}
	return 0
}
