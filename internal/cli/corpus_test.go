package cli

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/policy"
)

// corpusCase is one line of testdata/policy/*.jsonl: a `ward policy check`
// request and the decision the default policy must make.
type corpusCase struct {
	Name    string          `json:"name"`
	Request json.RawMessage `json:"request"`
	Want    struct {
		Action     string `json:"action"`
		ReasonCode string `json:"reason_code"`
		Rule       string `json:"rule"`
	} `json:"want"`
}

// fixture makes an agent root with the files and symlinks the path cases
// use, a home directory with an ssh key, and a directory outside both.
func fixture(t testing.TB) (workdir, home string) {
	t.Helper()
	base := t.TempDir()
	workdir = filepath.Join(base, "agent")
	home = filepath.Join(base, "home")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{"notes", "data", "keys", "config"} {
		mustMkdir(t, filepath.Join(workdir, d))
	}
	mustMkdir(t, filepath.Join(home, ".ssh"))
	mustMkdir(t, outside)
	mustMkdir(t, workdir+"-evil")
	for _, f := range []string{"README.md", "notes/plan.md", "wallet.json", ".env", "keys/Private_Key.pem", "config/api-key", "state.db", "CONSTITUTION.md"} {
		mustWrite(t, filepath.Join(workdir, f))
	}
	mustWrite(t, filepath.Join(home, ".ssh", "id_ed25519"))
	mustSymlink(t, "../wallet.json", filepath.Join(workdir, "notes", "wallet-link"))
	mustSymlink(t, outside, filepath.Join(workdir, "escape"))
	mustSymlink(t, filepath.Join(outside, "created-by-write"), filepath.Join(workdir, "notes", "dangling"))
	return workdir, home
}

func mustMkdir(t testing.TB, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mustWrite(t testing.TB, p string) {
	t.Helper()
	if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
}

func mustSymlink(t testing.TB, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// corpusPolicy is the default policy with the fixture's root and home.
func corpusPolicy(t testing.TB, workdir, home string) *config.File {
	t.Helper()
	f, err := config.Parse("test.toml", []byte("[policy.paths]\nroot = "+quote(workdir)+"\nhome = "+quote(home)+"\n"))
	if err != nil {
		t.Fatalf("config: %v", err)
	}
	return f
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

func TestPolicyCorpus(t *testing.T) {
	workdir, home := fixture(t)
	// The policy's own root is elsewhere: a request's workdir is the
	// agent's root for that call.
	cfg := corpusPolicy(t, t.TempDir(), home)
	files, err := filepath.Glob("testdata/policy/*.jsonl")
	if err != nil || len(files) < 6 {
		t.Fatalf("corpus files: %v (%d found)", err, len(files))
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".jsonl"), func(t *testing.T) {
			f, err := os.Open(file)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 1<<20)
			n := 0
			for sc.Scan() {
				n++
				var c corpusCase
				if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
					t.Fatalf("%s:%d: %v", file, n, err)
				}
				req := strings.ReplaceAll(string(c.Request), "$WORKDIR", workdir)
				t.Run(c.Name, func(t *testing.T) {
					d, err := evaluateLine(cfg.Snapshot, policy.NewTracker(), nil, []byte(req))
					if err != nil {
						t.Fatalf("request rejected: %v", err)
					}
					if d.Action().String() != c.Want.Action ||
						(c.Want.ReasonCode != "" && string(d.Code()) != c.Want.ReasonCode) ||
						(c.Want.Rule != "" && d.Rule() != c.Want.Rule) {
						t.Errorf("got %s %s (rule %s: %s; %s)\nwant %s %s (rule %s)", d.Action(), d.Code(), d.Rule(), d.Message(), d.Diagnostic(),
							c.Want.Action, c.Want.ReasonCode, c.Want.Rule)
					}
					if c.Want.Action == "allow" && d.Rule() != "" {
						t.Errorf("allowed with a deciding rule %q", d.Rule())
					}
				})
			}
			if err := sc.Err(); err != nil {
				t.Fatal(err)
			}
			if n == 0 {
				t.Fatalf("%s has no cases", file)
			}
		})
	}
}
