package a2a

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	spec "github.com/a2aproject/a2a-go/a2a"
)

// call is one facade tool call a message carries.
type call struct {
	tool string
	args json.RawMessage // a JSON object
}

// sendInput is what ward reads from a valid message/send or
// message/stream: the call (none when the message continues a task), the
// output mode and how much history the reply carries.
type sendInput struct {
	call    *call
	text    bool // the client accepts text/plain but not JSON
	history *int
}

// callExample is what a message without a call is told to send.
const callExample = `{"kind": "data", "data": {"tool": "query_state", "arguments": {"kind": "gate"}}}`

// checkSend validates the params of message/send and message/stream and
// finds the message's call: one per message starting a task, none on a
// message that continues one.
func checkSend(p *spec.MessageSendParams) (*sendInput, error) {
	in := &sendInput{}
	if c := p.Config; c != nil {
		if c.PushConfig != nil {
			return nil, errPush
		}
		if c.HistoryLength != nil && *c.HistoryLength < 0 {
			return nil, invalidParams("params.configuration.historyLength must not be negative")
		}
		in.history = c.HistoryLength
		if len(c.AcceptedOutputModes) > 0 {
			js, text := accepts(c.AcceptedOutputModes)
			if !js && !text {
				return nil, &rpcErr{codeContentType, "ward answers in application/json or text/plain"}
			}
			in.text = !js
		}
	}
	m := p.Message
	if m == nil {
		return nil, invalidParams("params.message is required")
	}
	if b, err := json.Marshal(m); err != nil || len(b) > maxMessage {
		return nil, invalidParams(fmt.Sprintf("params.message is larger than %d bytes", maxMessage))
	}
	switch {
	case m.ID == "":
		return nil, invalidParams("params.message.messageId is required")
	case len(m.ID) > maxID || len(m.ContextID) > maxID || len(m.TaskID) > maxID:
		return nil, invalidParams(fmt.Sprintf("params.message's ids are at most %d bytes", maxID))
	case m.Role != spec.MessageRoleUser:
		return nil, invalidParams(`params.message.role must be "user"`)
	case len(m.Parts) == 0:
		return nil, invalidParams("params.message.parts is empty: send " + callExample)
	case len(m.Parts) > maxParts:
		return nil, invalidParams(fmt.Sprintf("params.message has more than %d parts", maxParts))
	}
	var calls []*call
	for i, part := range m.Parts {
		c, err := partCall(part, fmt.Sprintf("params.message.parts[%d]", i))
		if err != nil {
			return nil, err
		}
		if c != nil {
			calls = append(calls, c)
		}
	}
	switch {
	case m.TaskID != "" && len(calls) > 0:
		return nil, invalidParams("a message on a task checks on the call it waits for and carries no call of its own: start a new task for another call")
	case m.TaskID != "":
		return in, nil
	case len(calls) == 0:
		return nil, invalidParams("the message carries no call: send " + callExample)
	case len(calls) > 1:
		return nil, invalidParams("a message carries one call; send the others as separate messages")
	}
	in.call = calls[0]
	return in, nil
}

// partCall returns the call a part carries, if any: a data part {"tool",
// "arguments"}, or a text part holding that JSON. Other text is a note;
// files are refused.
func partCall(part spec.Part, name string) (*call, error) {
	switch p := part.(type) {
	case spec.DataPart:
		if p.Data == nil {
			return nil, invalidParams(name + ".data must be an object")
		}
		b, err := json.Marshal(p.Data)
		if err != nil {
			return nil, invalidParams(name + ".data must be an object")
		}
		return parseCall(b, name+".data")
	case spec.TextPart:
		if t := bytes.TrimSpace([]byte(p.Text)); len(t) > 0 && t[0] == '{' && json.Valid(t) {
			return parseCall(t, name+".text")
		}
		return nil, nil
	}
	return nil, invalidParams(name + ": file parts are not accepted; send the call as a data part")
}

// parseCall reads {"tool": name, "arguments": {...}} from a JSON object;
// an object without "tool" carries no call.
func parseCall(obj []byte, name string) (*call, error) {
	var w struct {
		Tool      json.RawMessage `json:"tool"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if json.Unmarshal(obj, &w) != nil || w.Tool == nil {
		return nil, nil
	}
	var tool string
	if json.Unmarshal(w.Tool, &tool) != nil || !toolName(tool) {
		return nil, invalidParams(name + ".tool must be the name of a facade tool (see the agent card's skills)")
	}
	args := bytes.TrimSpace(w.Arguments)
	switch {
	case len(args) == 0 || string(args) == "null":
		args = []byte("{}")
	case args[0] != '{':
		return nil, invalidParams(name + ".arguments must be an object")
	}
	return &call{tool: tool, args: json.RawMessage(args)}, nil
}

// toolName reports whether s has the shape of a tool name.
func toolName(s string) bool {
	if s == "" || len(s) > maxToolName {
		return false
	}
	return strings.Trim(s, "abcdefghijklmnopqrstuvwxyz0123456789_") == ""
}

// accepts reports whether output modes admit JSON and plain text.
func accepts(modes []string) (js, text bool) {
	for _, m := range modes {
		m = strings.ToLower(strings.TrimSpace(strings.SplitN(m, ";", 2)[0]))
		switch m {
		case "*/*", "application/*", mediaJSON:
			js = true
		}
		switch m {
		case "*/*", "text/*", mediaText:
			text = true
		}
	}
	return js, text
}

// decodeNumbers decodes JSON keeping numbers exact (json.Number), so a
// result read back from a task is what the tool returned.
func decodeNumbers(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	return d.Decode(v)
}
