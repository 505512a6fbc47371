package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/bench"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules"
)

// checkMix returns n request lines of the bench mix in the what-if
// format of ward policy check.
func checkMix(tb testing.TB, n int) []byte {
	tb.Helper()
	w, err := bench.NewWorkload(tb.TempDir(), n, 1)
	if err != nil {
		tb.Fatal(err)
	}
	var buf bytes.Buffer
	for _, c := range w.Calls {
		line, err := json.Marshal(map[string]any{
			"tool": map[string]string{"name": c.Tool.Name}, "args": json.RawMessage(c.Args),
			"turn": map[string]string{"id": c.Turn.ID, "session_id": c.Turn.SessionID, "input_source": "agent"},
		})
		if err != nil {
			tb.Fatal(err)
		}
		buf.Write(line)
		buf.WriteByte('\n')
	}
	return buf.Bytes()
}

// BenchmarkPolicyCheck measures ward policy check end to end (read a line,
// decode, decide, encode the decision) on the bench mix, in one process.
func BenchmarkPolicyCheck(b *testing.B) {
	mix := checkMix(b, 100_000)
	dir := b.TempDir()
	b.Chdir(dir)
	lines := bytes.Count(mix, []byte{'\n'})
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		code := Main(context.Background(), []string{"policy", "check", "--data", filepath.Join(dir, "none")}, bytes.NewReader(mix), io.Discard, os.Stderr)
		if code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
	b.ReportMetric(float64(lines*b.N)/b.Elapsed().Seconds(), "decisions/s")
}

// BenchmarkEvaluateLine measures one line of ward policy check (decode and
// decide, without the output) on the bench mix.
func BenchmarkEvaluateLine(b *testing.B) {
	mix := checkMix(b, 4096)
	cfg, err := config.Default()
	if err != nil {
		b.Fatal(err)
	}
	resolver := rules.NewResolver()
	defer resolver.Close()
	snap, err := compileWith(cfg, resolver)
	if err != nil {
		b.Fatal(err)
	}
	tracked := policy.NewTracker()
	known := catalogRefs()
	lines := bytes.Split(bytes.TrimSpace(mix), []byte{'\n'})
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := evaluateLine(snap, tracked, known, lines[i%len(lines)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// TestPolicyCheckStreams writes requests one at a time and waits for each
// answer before sending the next, as a client using ward policy check as a
// what-if service does: every answer must come without more input.
func TestPolicyCheckStreams(t *testing.T) {
	t.Chdir(t.TempDir())
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int, 1)
	go func() {
		done <- Main(t.Context(), []string{"policy", "check"}, inR, outW, io.Discard)
		outW.Close()
	}()
	answers := bufio.NewScanner(outR)
	for i, req := range []string{
		`{"tool":{"name":"exec"},"args":{"command":"rm -rf /"}}`,
		`{"tool":{"name":"read_file"},"args":{"path":"notes.md"}}`,
		`{"tool":{"name":"exec"},"args":{"command":"ls"}}`,
		`not json`,
	} {
		if _, err := io.WriteString(inW, req+"\n"); err != nil {
			t.Fatal(err)
		}
		got := make(chan string, 1)
		go func() {
			if answers.Scan() {
				got <- answers.Text()
			}
			close(got)
		}()
		select {
		case a, ok := <-got:
			if !ok || (i < 3) != strings.Contains(a, `"action"`) {
				t.Fatalf("request %d: answer %q", i, a)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("request %d: no answer within 10 s while the client waits", i)
		}
	}
	inW.Close()
	if code := <-done; code != exitUsage {
		t.Errorf("exit %d, want %d (a malformed line)", code, exitUsage)
	}
}
