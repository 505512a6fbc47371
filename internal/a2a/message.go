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

// sendInput is a validated message/send or message/stream request.
type sendInput struct {
	msg     *spec.Message // the message as the task's history keeps it
	call    call          // none when the message continues a task
	taskID  spec.TaskID   // set when the message continues a task
	text    bool          // the client accepts text/plain but not JSON
	history *int          // how much history the reply carries
}

// callExample is what a message without a call is told to send.
const callExample = `{"kind": "data", "data": {"tool": "query_state", "arguments": {"kind": "gate"}}}`

// parseSend validates the params of message/send and message/stream and
// finds the message's call.
func parseSend(raw json.RawMessage) (*sendInput, *rpcError) {
	var p struct {
		Message       json.RawMessage `json:"message"`
		Configuration *struct {
			AcceptedOutputModes []string        `json:"acceptedOutputModes"`
			Blocking            *bool           `json:"blocking"`
			HistoryLength       *int            `json:"historyLength"`
			PushConfig          json.RawMessage `json:"pushNotificationConfig"`
		} `json:"configuration"`
	}
	if rerr := decodeParams(raw, &p); rerr != nil {
		return nil, rerr
	}
	in := &sendInput{}
	if c := p.Configuration; c != nil {
		if pc := bytes.TrimSpace(c.PushConfig); len(pc) > 0 && string(pc) != "null" {
			return nil, &rpcError{Code: codePushNotSupported, Message: "push notifications are not supported: use message/stream or tasks/get"}
		}
		if c.HistoryLength != nil && *c.HistoryLength < 0 {
			return nil, invalidParams("params.configuration.historyLength must not be negative")
		}
		in.history = c.HistoryLength
		if len(c.AcceptedOutputModes) > 0 {
			js, text := accepts(c.AcceptedOutputModes)
			if !js && !text {
				return nil, &rpcError{Code: codeContentType, Message: "ward answers in application/json or text/plain"}
			}
			in.text = !js
		}
	}
	m := bytes.TrimSpace(p.Message)
	switch {
	case len(m) == 0 || string(m) == "null":
		return nil, invalidParams("params.message is required")
	case m[0] != '{':
		return nil, invalidParams("params.message must be an object")
	case len(m) > maxMessage:
		return nil, invalidParams(fmt.Sprintf("params.message is larger than %d bytes", maxMessage))
	}
	var wm struct {
		Kind      string            `json:"kind"`
		MessageID string            `json:"messageId"`
		ContextID string            `json:"contextId"`
		TaskID    string            `json:"taskId"`
		Role      string            `json:"role"`
		Parts     []json.RawMessage `json:"parts"`
	}
	if rerr := decodeObject(m, &wm, "params.message"); rerr != nil {
		return nil, rerr
	}
	switch {
	case wm.Kind != "" && wm.Kind != "message":
		return nil, invalidParams(`params.message.kind must be "message"`)
	case wm.MessageID == "":
		return nil, invalidParams("params.message.messageId is required")
	case len(wm.MessageID) > maxID || len(wm.ContextID) > maxID || len(wm.TaskID) > maxID:
		return nil, invalidParams(fmt.Sprintf("params.message's ids are at most %d bytes", maxID))
	case wm.Role != string(spec.MessageRoleUser):
		return nil, invalidParams(`params.message.role must be "user"`)
	case len(wm.Parts) == 0:
		return nil, invalidParams("params.message.parts is empty: send " + callExample)
	case len(wm.Parts) > maxParts:
		return nil, invalidParams(fmt.Sprintf("params.message has more than %d parts", maxParts))
	}
	msg := &spec.Message{ID: wm.MessageID, ContextID: wm.ContextID, TaskID: spec.TaskID(wm.TaskID), Role: spec.MessageRoleUser}
	var calls []call
	for i, raw := range wm.Parts {
		part, c, rerr := parsePart(raw, fmt.Sprintf("params.message.parts[%d]", i))
		if rerr != nil {
			return nil, rerr
		}
		msg.Parts = append(msg.Parts, part)
		if c != nil {
			calls = append(calls, *c)
		}
	}
	in.msg, in.taskID = msg, msg.TaskID
	switch {
	case in.taskID != "" && len(calls) > 0:
		return nil, invalidParams("a message on a task checks on the call it waits for and carries no call of its own: start a new task for another call")
	case in.taskID != "":
		return in, nil
	case len(calls) == 0:
		return nil, invalidParams("the message carries no call: send " + callExample)
	case len(calls) > 1:
		return nil, invalidParams("a message carries one call; send the others as separate messages")
	}
	in.call = calls[0]
	return in, nil
}

// parsePart decodes one part of a message and the call it carries, if
// any: a data part {"tool", "arguments"}, or a text part holding that
// JSON. Other text is a note; files are refused.
func parsePart(raw json.RawMessage, name string) (spec.Part, *call, *rpcError) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' {
		return nil, nil, invalidParams(name + " must be an object")
	}
	var wp struct {
		Kind string          `json:"kind"`
		Text *string         `json:"text"`
		Data json.RawMessage `json:"data"`
	}
	if rerr := decodeObject(raw, &wp, name); rerr != nil {
		return nil, nil, rerr
	}
	switch wp.Kind {
	case "data":
		d := bytes.TrimSpace(wp.Data)
		if len(d) == 0 || d[0] != '{' {
			return nil, nil, invalidParams(name + ".data must be an object")
		}
		var data map[string]any
		if err := decodeNumbers(d, &data); err != nil {
			return nil, nil, invalidParams(name + ".data must be an object")
		}
		c, rerr := parseCall(d, name+".data")
		if rerr != nil {
			return nil, nil, rerr
		}
		return spec.DataPart{Data: data}, c, nil
	case "text":
		if wp.Text == nil {
			return nil, nil, invalidParams(name + ".text is required")
		}
		var c *call
		if t := bytes.TrimSpace([]byte(*wp.Text)); len(t) > 0 && t[0] == '{' && json.Valid(t) {
			var rerr *rpcError
			if c, rerr = parseCall(t, name+".text"); rerr != nil {
				return nil, nil, rerr
			}
		}
		return spec.TextPart{Text: *wp.Text}, c, nil
	case "file":
		return nil, nil, invalidParams(name + ": file parts are not accepted; send the call as a data part")
	}
	return nil, nil, invalidParams(name + `.kind must be "data" or "text"`)
}

// parseCall reads {"tool": name, "arguments": {...}} from a JSON object;
// an object without "tool" carries no call.
func parseCall(obj []byte, name string) (*call, *rpcError) {
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
// value read back into a task's history is what the client sent.
func decodeNumbers(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	return d.Decode(v)
}
