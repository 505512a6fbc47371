package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// MaxChatResponse bounds a chat-completions response body.
const MaxChatResponse = 1 << 20

// Errors of a chat completion that arrived but holds no usable answer.
// Callers branch on them with errors.Is; all of them mean "no answer",
// never "pass".
var (
	// ErrRefusal: the model refused (a "refusal" message or the
	// content_filter finish reason).
	ErrRefusal = errors.New("the model refused to answer")
	// ErrCutOff: the answer stopped at the token limit (finish reason
	// length), so it is incomplete even if it happens to parse.
	ErrCutOff = errors.New("the answer was cut off at the token limit")
	// ErrAnswer: the content is not the JSON object the caller expects.
	ErrAnswer = errors.New("answer is not the expected JSON object")
	// ErrServer: a 2xx body that is an error object, as some proxies send.
	ErrServer = errors.New("the server answered an error")
)

// ChatJSON posts the system prompt and user (a JSON document) to ep at
// temperature 0 in JSON mode (with ep.MaxTokens as max_tokens when set),
// and decodes the first choice's content, without a Markdown fence some
// models add, into out. A transport error, a non-2xx status (a
// *StatusError), a body over MaxChatResponse, a body that is not a chat
// completion, an error object (ErrServer), no choices, a refusal
// (ErrRefusal), an answer cut off at the token limit (ErrCutOff) and
// content that does not decode into out (ErrAnswer) are errors. The key is
// revealed to taint.LLMContext only. No error carries the key or any part
// of the response beyond an error object's type token. It is safe for
// concurrent use.
func ChatJSON(ctx context.Context, ep Endpoint, system string, user []byte, out any) error {
	body, err := chatRequest(ep, system, user)
	if err != nil {
		return err
	}
	raw, err := post(ctx, ep, body, MaxChatResponse, revealBearer)
	if err != nil {
		return err
	}
	if len(raw) > MaxChatResponse {
		return errors.New("response over 1 MiB")
	}
	content, err := chatContent(raw)
	if err != nil {
		return err
	}
	if err := json.Unmarshal([]byte(unfence(content)), out); err != nil {
		return ErrAnswer
	}
	return nil
}

// chatRequest is the body ChatJSON posts: the OpenAI Chat Completions
// request with model, the two messages, response_format json_object,
// temperature 0 and, when ep.MaxTokens is set, max_tokens. Its keys are
// sorted, so equal inputs give equal bytes.
func chatRequest(ep Endpoint, system string, user []byte) ([]byte, error) {
	req := map[string]any{
		"model": ep.Model,
		"messages": []map[string]string{
			{"role": "system", "content": system},
			{"role": "user", "content": string(user)},
		},
		"response_format": map[string]string{"type": "json_object"},
		"temperature":     0,
	}
	if ep.MaxTokens > 0 {
		req["max_tokens"] = ep.MaxTokens
	}
	body, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	return body, nil
}

// chatContent returns the first choice's content of a chat completion.
func chatContent(raw []byte) (string, error) {
	var cc struct {
		Choices []struct {
			Message struct {
				Content *string `json:"content"`
				Refusal *string `json:"refusal"`
			} `json:"message"`
			FinishReason *string `json:"finish_reason"`
		} `json:"choices"`
		errorBody
	}
	if err := json.Unmarshal(raw, &cc); err != nil {
		return "", errors.New("response is not a chat completion")
	}
	if t, ok := cc.errorType(); ok {
		if t == "" {
			return "", ErrServer
		}
		return "", fmt.Errorf("%w (%s)", ErrServer, t)
	}
	if len(cc.Choices) == 0 {
		return "", errors.New("response has no choices")
	}
	c := cc.Choices[0]
	if c.Message.Refusal != nil && *c.Message.Refusal != "" {
		return "", ErrRefusal
	}
	if c.FinishReason != nil {
		switch *c.FinishReason {
		case "length":
			return "", ErrCutOff
		case "content_filter":
			return "", ErrRefusal
		}
	}
	if c.Message.Content == nil {
		return "", ErrAnswer
	}
	return *c.Message.Content, nil
}

// unfence removes a Markdown code fence around s, which some models add
// despite JSON mode.
func unfence(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "```") {
		return s
	}
	s = strings.TrimPrefix(s, "```")
	s = strings.TrimPrefix(s, "json")
	return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(s), "```"))
}

// errorBody is an error answer as OpenAI and llama.cpp's server send it
// ({"error": {"type": …, "code": …, "message": …}}) or as vLLM does
// ({"object": "error", "type": …, "code": …, "message": …}). The message
// is never read: it may echo the request.
type errorBody struct {
	Error  json.RawMessage `json:"error"`
	Object string          `json:"object"`
	Type   json.RawMessage `json:"type"`
	Code   json.RawMessage `json:"code"`
}

// errorType reports whether the body is an error object and gives its type
// (or code) when that is a short token, else "".
func (e errorBody) errorType() (string, bool) {
	if len(e.Error) > 0 && string(e.Error) != "null" {
		var inner struct {
			Type json.RawMessage `json:"type"`
			Code json.RawMessage `json:"code"`
		}
		_ = json.Unmarshal(e.Error, &inner)
		return firstToken(inner.Type, inner.Code), true
	}
	if e.Object == "error" {
		return firstToken(e.Type, e.Code), true
	}
	return "", false
}

// firstToken is the first of vs that is a JSON string or number of at most
// 64 letters, digits, '_', '-' or '.'.
func firstToken(vs ...json.RawMessage) string {
	for _, v := range vs {
		s := strings.Trim(string(v), `"`)
		if s == "" || s == "null" || len(s) > 64 {
			continue
		}
		ok := true
		for _, r := range s {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.') {
				ok = false
				break
			}
		}
		if ok {
			return s
		}
	}
	return ""
}
