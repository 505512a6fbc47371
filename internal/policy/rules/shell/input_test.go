package shell

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestAnalyzeInput checks command lines that read the standard input a
// tool gives them: a script for a shell or interpreter, SQL for a client,
// operands for xargs; and commands that do not read it.
func TestAnalyzeInput(t *testing.T) {
	env := testEnv()
	for _, tc := range []struct {
		cmd, stdin string
		want       []Kind
	}{
		{"bash", "rm -rf ~", []Kind{DestroyFiles}},
		{"sh -s", "cd / && rm -rf *", []Kind{DestroyFiles}},
		{"sudo bash", "rm -rf ward-data", []Kind{DestroyState}},
		{"python3", "import shutil; shutil.rmtree('/')", []Kind{DestroyFiles}},
		{"python3 -", "import os\nos.system('reboot')", []Kind{Shutdown}},
		{"sqlite3 app.db", "DELETE FROM t;", []Kind{SQLDestroy}},
		{"psql -d app", "UPDATE users SET admin = true;", []Kind{SQLDestroy}},
		{"xargs rm -rf", "/", []Kind{DestroyFiles}},
		{"cd /tmp && bash", "rm -rf ~", []Kind{DestroyFiles}},
		{"cat > notes.txt", "rm -rf / is a bad idea", nil},
		{"bash script.sh", "rm -rf /", nil},                // reads its script from a file
		{"bash < script.sh", "rm -rf /", nil},              // its input is the file
		{"echo hi | bash", "rm -rf /", []Kind{OpaqueExec}}, // reads the pipe
		{"sqlite3 app.db", "DELETE FROM t WHERE id = 3;", nil},
		{"bash -c 'echo hi'", "rm -rf /", nil},
		{"wc -l", "DELETE FROM t", nil},
	} {
		t.Run(tc.cmd+" <<< "+tc.stdin, func(t *testing.T) {
			got, err := AnalyzeInput(tc.cmd, tc.stdin, env)
			if err != nil {
				t.Fatalf("AnalyzeInput error = %v", err)
			}
			if len(tc.want) == 0 && len(got) > 0 {
				t.Fatalf("AnalyzeInput(%q, %q) = %v, want no findings", tc.cmd, tc.stdin, got)
			}
			for _, k := range tc.want {
				if !slices.Contains(kindsOf(got), k) {
					t.Errorf("AnalyzeInput(%q, %q) = %v, want a %v finding", tc.cmd, tc.stdin, got, k)
				}
			}
		})
	}
	if _, err := AnalyzeInput("bash", strings.Repeat("a", MaxLen+1), env); !errors.Is(err, ErrTooLong) {
		t.Errorf("AnalyzeInput of a long input: error = %v, want ErrTooLong", err)
	}
	if _, err := AnalyzeInput("bash", "echo 'x", env); !errors.Is(err, ErrMalformed) {
		t.Errorf("AnalyzeInput of a malformed script: error = %v, want ErrMalformed", err)
	}
}
