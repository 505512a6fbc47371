package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// curlExample is one curl command of a sh block of a document.
type curlExample struct {
	line   int    // in the document
	cmd    string // as written
	status int    // the status its "# → NNN" annotation states, or 0
}

var statusNote = regexp.MustCompile(`^\s*#\s*→\s*(\d{3})\b`)

// curlExamples extracts every curl command from the sh blocks of a
// Markdown document, parsed as bash (mvdan.cc/sh) so that continuation
// lines and quoted newlines stay in their command.
func curlExamples(t *testing.T, doc string) []curlExample {
	t.Helper()
	var out []curlExample
	lines := strings.Split(doc, "\n")
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```sh" {
			continue
		}
		start := i + 1
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
		}
		block := strings.Join(lines[start:i], "\n")
		f, err := syntax.NewParser().Parse(strings.NewReader(block), "")
		if err != nil {
			t.Fatalf("the sh block at line %d does not parse: %v", start, err)
		}
		blockLines := strings.Split(block, "\n")
		syntax.Walk(f, func(n syntax.Node) bool {
			st, ok := n.(*syntax.Stmt)
			if !ok {
				return true
			}
			call, ok := st.Cmd.(*syntax.CallExpr)
			if !ok || len(call.Args) == 0 || call.Args[0].Lit() != "curl" {
				return true
			}
			ex := curlExample{line: start + int(st.Pos().Line()), cmd: block[st.Pos().Offset():st.End().Offset()]}
			// The annotation: a comment after the command, or on the next line.
			end := int(st.End().Line()) - 1
			rest := blockLines[end][min(int(st.End().Col())-1, len(blockLines[end])):]
			if m := statusNote.FindStringSubmatch(rest); m != nil {
				ex.status, _ = strconv.Atoi(m[1])
			} else if end+1 < len(blockLines) {
				if m := statusNote.FindStringSubmatch(blockLines[end+1]); m != nil {
					ex.status, _ = strconv.Atoi(m[1])
				}
			}
			out = append(out, ex)
			return false
		})
	}
	return out
}

// TestDocsAPICurlExamples runs every curl example of docs/api.md, as
// written, with curl against a running ward serve: none may be refused
// for its form (415, 405, 401, a route that does not exist); one that
// states its status gets it; one without placeholders (…) succeeds.
func TestDocsAPICurlExamples(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatalf("curl is needed to run the documented examples (.ci/run installs it): %v", err)
	}
	doc, err := os.ReadFile("../../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	examples := curlExamples(t, string(doc))
	if len(examples) < 10 {
		t.Fatalf("found %d curl examples in docs/api.md, want every one (at least 10)", len(examples))
	}

	dir := t.TempDir()
	t.Chdir(dir)
	token := func(role, name string) string {
		out, errOut, code := run(t, "", "token", "create", "--role", role, "--name", name)
		if code != 0 {
			t.Fatalf("token create: %s", errOut)
		}
		return strings.TrimSpace(out)
	}
	owner := token("owner", "me")
	env := append(os.Environ(), "OWNER="+owner, "WARD_TOKEN="+owner, "AGENT="+token("agent", "agent"), "ALICE="+token("agent", "alice"))
	// A ward.toml of the defaults, so that the reload example has a file
	// to read again.
	if err := os.WriteFile(filepath.Join(dir, "ward.toml"), []byte("# the defaults\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := startServeIn(t, dir)
	addr := strings.TrimPrefix(c.base, "http://")
	env = append(env, "WARD="+addr)

	body := filepath.Join(dir, "body")
	for _, ex := range examples {
		cmd := strings.ReplaceAll(ex.cmd, "localhost:8787", addr)
		cmd += " -o " + body + " -w '%{http_code} %{content_type}'"
		if strings.Contains(ex.cmd, " -sN ") {
			cmd += " --max-time 2" // an event stream: its headers are the answer
		}
		sh := exec.Command("bash", "-c", cmd)
		sh.Env = env
		out, err := sh.Output()
		got := strings.Fields(string(out))
		if len(got) == 0 {
			t.Errorf("docs/api.md:%d: %s: no response (%v)", ex.line, ex.cmd, err)
			continue
		}
		status, _ := strconv.Atoi(got[0])
		ctype := strings.Join(got[1:], " ")
		b, _ := os.ReadFile(body)
		bad := ""
		switch {
		case status == 415 || status == 405 || status == 401 || status == 0:
			bad = "refused for its form"
		case !strings.HasPrefix(ctype, "application/json") && !strings.HasPrefix(ctype, "text/event-stream"):
			bad = "not an answer of the API (a route that does not exist?)"
		case ex.status != 0 && status != ex.status:
			bad = "not the status it states, " + strconv.Itoa(ex.status)
		case ex.status == 0 && !strings.Contains(ex.cmd, "…") && (status < 200 || status > 299):
			bad = "an example without placeholders that fails"
		}
		if bad != "" {
			t.Errorf("docs/api.md:%d: %s\n  → %d %s: %s\n  %.300s", ex.line, ex.cmd, status, ctype, bad, b)
		} else {
			t.Logf("docs/api.md:%d → %d", ex.line, status)
		}
	}
}
