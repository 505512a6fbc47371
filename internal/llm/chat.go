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

// ChatJSON posts the system prompt and user (a JSON document) to ep at
// temperature 0 in JSON mode, and decodes the first choice's content,
// without a Markdown fence some models add, into out. A transport error,
// a non-2xx status (a *StatusError), a body over MaxChatResponse, a body
// that is not a chat completion and content that does not decode into out
// are errors. The key is revealed to taint.LLMContext only. No error
// carries the key or any part of the response. It is safe for concurrent
// use.
func ChatJSON(ctx context.Context, ep Endpoint, system string, user []byte, out any) error {
	body, err := json.Marshal(map[string]any{
		"model": ep.Model,
		"messages": []map[string]string{
			{"role": "system", "content": system},
			{"role": "user", "content": string(user)},
		},
		"response_format": map[string]string{"type": "json_object"},
		"temperature":     0,
	})
	if err != nil {
		return fmt.Errorf("encode request: %w", err)
	}
	raw, err := post(ctx, ep, body, MaxChatResponse, revealBearer)
	if err != nil {
		return err
	}
	if len(raw) > MaxChatResponse {
		return errors.New("response over 1 MiB")
	}
	var cc struct {
		Choices []struct {
			Message struct {
				Content string `json:"content"`
			} `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(raw, &cc); err != nil {
		return errors.New("response is not a chat completion")
	}
	if len(cc.Choices) == 0 {
		return errors.New("response has no choices")
	}
	if err := json.Unmarshal([]byte(unfence(cc.Choices[0].Message.Content)), out); err != nil {
		return errors.New("answer is not the expected JSON object")
	}
	return nil
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
