package cli

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/telemetry/telemetrytest"
)

// TestServeFlushesSpansOnSIGTERM runs the ward binary itself (built here:
// its main is what turns SIGTERM into a shutdown) with [telemetry] set,
// makes one call, and stops it with SIGTERM well before the exporter's
// batch would leave on its own (5 s): the call's span reaches the
// collector only if the shutdown flushed it.
func TestServeFlushesSpansOnSIGTERM(t *testing.T) {
	col := telemetrytest.New(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "ward")
	build := exec.Command("go", "build", "-o", bin, "github.com/wardhq/ward/cmd/ward")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	data := filepath.Join(dir, "data")
	cfg := filepath.Join(dir, "ward.toml")
	if err := os.WriteFile(cfg, fmt.Appendf(nil, "[telemetry]\notlp_endpoint = %q\n", col.URL), 0o600); err != nil {
		t.Fatal(err)
	}
	tok, errOut, code := run(t, "", "token", "create", "--role", "agent", "--name", "agent", "--data", data)
	if code != 0 {
		t.Fatalf("token create: %s", errOut)
	}
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--data", data, "--config", cfg)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
	})
	sc := bufio.NewScanner(stdout)
	base := ""
	for sc.Scan() {
		if after, ok := strings.CutPrefix(sc.Text(), "ward ready on "); ok {
			base, _, _ = strings.Cut(after, " ")
			break
		}
	}
	go func() {
		io.Copy(io.Discard, stdout)
		done <- cmd.Wait()
	}()
	if base == "" {
		t.Fatalf("ward serve did not start: %s", stderr.String())
	}
	req, _ := http.NewRequest("POST", base+"/v1/call/preview_action", strings.NewReader(`{"action_type":"transfer","venue":"erc20","params":{}}`))
	req.Header.Set("Authorization", "Bearer "+strings.TrimSpace(tok))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("a transfer without its parameters: %d, want 400", resp.StatusCode)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		done <- err // for the cleanup
		if err != nil {
			t.Fatalf("ward serve after SIGTERM: %v: %s", err, stderr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("ward serve did not stop on SIGTERM")
	}
	spans := col.Spans(t).Named("ward.preview")
	if len(spans) != 1 || telemetrytest.Attr(spans[0], "ward.reason") != "SCHEMA_VIOLATION" {
		t.Fatalf("after SIGTERM the collector has %d ward.preview spans (%v), want the refused call's", len(spans), spans)
	}
}
