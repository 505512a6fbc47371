package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/bench"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/tool"
)

// TestCheckLineQuickMatchesPlain decides generated request lines twice:
// through evaluateLine (the streaming path, which reads a line and its
// arguments in one pass) and through the plain path (encoding/json, then
// the arguments parsed on their own), and wants the same answer from both:
// the same decision to the byte (latency aside) or the same error. The lines
// are the bench mix and corpus-like calls, re-spelled at random: key
// order, whitespace, escapes, extra request fields, nested arguments, and
// now and then a fault (a duplicate key, a truncated line, arguments that
// are not an object).
func TestCheckLineQuickMatchesPlain(t *testing.T) {
	workdir, home := fixture(t)
	cfg := corpusPolicy(t, workdir, home)
	known := catalogRefs()
	tracked := policy.NewTracker()
	tracked.SetBalance(100_000)
	tracked.RecordSpend("transfer", 4000, time.Now().Add(-10*time.Minute))

	w, err := bench.NewWorkload(t.TempDir(), 3000, 7)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(23, 0xc4ec))
	quick, decided, refused := 0, 0, 0
	for i, c := range w.Calls {
		req := map[string]any{
			"tool": map[string]any{"name": c.Tool.Name},
			"args": json.RawMessage(c.Args),
			"turn": map[string]any{"id": c.Turn.ID, "session_id": c.Turn.SessionID, "input_source": "agent"},
			"now":  "2026-11-28T12:00:00Z",
		}
		if rng.IntN(3) == 0 {
			req["workdir"] = workdir
		}
		if rng.IntN(4) == 0 {
			req["tool"].(map[string]any)["risk"] = []string{"safe", "caution", "dangerous", "forbidden"}[rng.IntN(4)]
		}
		if rng.IntN(6) == 0 {
			var extra map[string]any
			if err := json.Unmarshal(c.Args, &extra); err != nil {
				t.Fatal(err)
			}
			extra["nested"] = map[string]any{"b": []any{1.5, "x/y", nil, true, map[string]any{"k": "é"}}, "a": -0.0}
			raw, _ := json.Marshal(extra)
			req["args"] = json.RawMessage(raw)
		}
		line := respell(t, rng, req)
		switch rng.IntN(40) {
		case 0:
			line = append([]byte(`{"now":"2026-11-28T12:00:00Z",`), line[1:]...)
		case 1:
			line = line[:rng.IntN(len(line))]
		case 2:
			line = bytes.Replace(line, []byte(`"args"`), []byte(`"args":"x","a\u0072gs"`), 1)
		case 3:
			line = bytes.Replace(line, []byte(`"args"`), []byte(`"args":[1],"Args"`), 1)
		}

		got, gotErr := evaluateLine(cfg.Snapshot, tracked, known, line)
		want, wantErr := evaluatePlain(cfg.Snapshot, tracked, known, line)
		if _, ok := policy.QuickCheckRequest(line); ok {
			quick++
		}
		if (gotErr != nil) != (wantErr != nil) || (gotErr != nil && gotErr.Error() != wantErr.Error()) {
			t.Fatalf("line %d %s:\nstreaming error %v\nplain error     %v", i, line, gotErr, wantErr)
		}
		if gotErr != nil {
			refused++
			continue
		}
		decided++
		if g, w := decisionText(&got), decisionText(&want); g != w {
			t.Fatalf("line %d %s:\nstreaming %s\nplain     %s", i, line, g, w)
		}
	}
	// The test is worth something only if most lines take the streaming
	// path and both outcomes occur.
	if quick < len(w.Calls)*3/4 || decided < len(w.Calls)/2 || refused == 0 {
		t.Fatalf("%d lines: %d read by the streaming decoder, %d decided, %d refused", len(w.Calls), quick, decided, refused)
	}
}

// evaluatePlain is evaluateLine without the streaming decoder: the line
// by encoding/json, the arguments parsed on their own by Evaluate.
func evaluatePlain(snap *policy.Snapshot, tracked *policy.Tracker, known map[string]tool.Ref, line []byte) (policy.Decision, error) {
	var cr policy.CheckRequest
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&cr); err != nil {
		return policy.Decision{}, jsonFieldError(err)
	}
	if dec.More() {
		return policy.Decision{}, errors.New("more than one JSON value on the line")
	}
	if ref, ok := known[cr.Tool.Name]; ok {
		cr.Complete(ref)
	}
	return cr.Evaluate(snap, tracked, time.Now())
}

var latencyField = regexp.MustCompile(`"latency_ns":\d+`)

func decisionText(d *policy.Decision) string {
	return latencyField.ReplaceAllString(string(d.AppendJSON(nil)), `"latency_ns":0`)
}

// respell writes v as JSON with object keys in random order, random
// whitespace, and string characters randomly written as \u escapes.
func respell(t testing.TB, rng *rand.Rand, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	var write func(v any)
	space := func() {
		if rng.IntN(5) == 0 {
			b.WriteString([]string{" ", "\t", "  ", "\r\n "}[rng.IntN(4)])
		}
	}
	write = func(v any) {
		space()
		switch v := v.(type) {
		case json.RawMessage:
			dec := json.NewDecoder(bytes.NewReader(v))
			dec.UseNumber()
			var x any
			if err := dec.Decode(&x); err != nil {
				t.Fatal(err)
			}
			write(x)
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			rng.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
			b.WriteByte('{')
			for i, k := range keys {
				if i > 0 {
					b.WriteByte(',')
				}
				write(k)
				space()
				b.WriteByte(':')
				write(v[k])
			}
			space()
			b.WriteByte('}')
		case []any:
			b.WriteByte('[')
			for i, e := range v {
				if i > 0 {
					b.WriteByte(',')
				}
				write(e)
			}
			b.WriteByte(']')
		case string:
			b.WriteByte('"')
			for _, r := range v {
				switch {
				case r == '"' || r == '\\':
					b.WriteByte('\\')
					b.WriteRune(r)
				case r < 0x20 || rng.IntN(12) == 0 && r < 0x10000:
					fmt.Fprintf(&b, `\u%04x`, r)
				case r == '/' && rng.IntN(2) == 0:
					b.WriteString(`\/`)
				default:
					b.WriteRune(r)
				}
			}
			b.WriteByte('"')
		default:
			raw, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(raw)
		}
		space()
	}
	write(v)
	return bytes.TrimSpace(b.Bytes())
}
