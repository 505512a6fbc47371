package trust

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/taint"
)

// ChatEndpoint is an OpenAI-compatible chat-completions endpoint.
type ChatEndpoint struct {
	URL     string // the full URL, ending in /chat/completions
	Model   string
	APIKey  *taint.String // sent as a bearer token, revealed to taint.LLMContext only
	Client  *http.Client
	Timeout time.Duration // bounds the whole call
}

// MaxChatResponse bounds a chat-completions response body.
const MaxChatResponse = 1 << 20

// ChatJSON posts the system prompt and user (a JSON document) to ep at
// temperature 0 in JSON mode, and decodes the first choice's content,
// without a Markdown fence some models add, into out. A transport error,
// a non-2xx status, a body over MaxChatResponse, a body that is not a chat
// completion and content that does not decode into out are errors. No
// error carries the key or any part of the response.
func ChatJSON(ctx context.Context, ep ChatEndpoint, system string, user []byte, out any) error {
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
	ctx, cancel := context.WithTimeout(ctx, ep.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.URL, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("build request: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	if ep.APIKey != nil {
		key, err := ep.APIKey.Reveal(taint.LLMContext)
		if err != nil {
			return fmt.Errorf("api key: %w", err)
		}
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := ep.Client.Do(req)
	if err != nil {
		return fmt.Errorf("post: %w", err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, MaxChatResponse+1))
	if err != nil {
		return fmt.Errorf("read response: %w", err)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return fmt.Errorf("status %d", resp.StatusCode)
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
