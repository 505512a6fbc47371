package daemon

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/id"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/store/sqlite"
)

// holdEnv names the data directory a re-executed test binary holds
// (TestHoldDataDirectory).
const holdEnv = "WARD_TEST_HOLD_DATA"

// TestHoldDataDirectory is the second process of TestSecondProcessIsRefused:
// run with holdEnv set, it opens that data directory, says "held" and
// waits to be killed. Without holdEnv it does nothing.
func TestHoldDataDirectory(t *testing.T) {
	dir := os.Getenv(holdEnv)
	if dir == "" {
		return
	}
	f, err := config.Parse("ward.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := OpenData(t.Context(), dir, f)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	os.Stdout.WriteString("held\n")
	time.Sleep(time.Minute)
}

// TestSecondProcessIsRefused: while another ward process holds a data
// directory, opening it is refused naming that process; once it is killed
// (kill -9: no clean-up of its own), the directory opens at once.
func TestSecondProcessIsRefused(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHoldDataDirectory$", "-test.count=1")
	cmd.Env = append(os.Environ(), holdEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	kill := func() {
		if !killed {
			killed = true
			cmd.Process.Kill()
			cmd.Wait()
		}
	}
	t.Cleanup(kill)
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || line != "held\n" {
		t.Fatalf("the holding process said %q (%v)", line, err)
	}
	f, err := config.Parse("ward.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	if st, err := OpenData(t.Context(), dir, f); err == nil {
		st.Close()
		t.Fatal("a data directory another process holds opened")
	} else if !strings.Contains(err.Error(), "in use by ward process "+strconv.Itoa(cmd.Process.Pid)) {
		t.Fatalf("open while held: %v, want the holder's pid %d", err, cmd.Process.Pid)
	}
	kill()
	st, err := OpenData(t.Context(), dir, f)
	if err != nil {
		t.Fatalf("open after the holder was killed: %v", err)
	}
	st.Close()
}

// TestCorruptDatabaseIsRefused: a ward.db with overwritten pages is
// refused at start with what to do, and left as it was for the operator
// to inspect; it is not silently replaced by a fresh database.
func TestCorruptDatabaseIsRefused(t *testing.T) {
	dir := t.TempDir()
	f, err := config.Parse("ward.toml", nil)
	if err != nil {
		t.Fatal(err)
	}
	st, err := OpenData(t.Context(), dir, f)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	db := filepath.Join(dir, "ward.db")
	s, err := sqlite.Open(t.Context(), sqlite.Config{Path: db})
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for i := range 3000 {
		at := now.Add(time.Duration(i))
		if err := s.AppendDecision(t.Context(), &store.DecisionRecord{ID: id.New(at), Time: at, Tool: "file_read", ArgsHash: "ab",
			Risk: "safe", Decision: store.VerdictAllow, Origin: store.OriginGate}, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	fh, err := os.OpenFile(db, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := fh.Stat()
	junk := []byte(strings.Repeat("\xff", 64))
	for off := int64(8 * 4096); off < fi.Size()-4096; off += 4096 {
		if _, err := fh.WriteAt(junk, off+200); err != nil {
			t.Fatal(err)
		}
	}
	fh.Close()
	before, _ := os.ReadFile(db)
	if st, err := OpenData(t.Context(), dir, f); !errors.Is(err, sqlite.ErrNotDatabase) || !strings.Contains(err.Error(), "backup") {
		if err == nil {
			st.Close()
		}
		t.Fatalf("start on a corrupt ward.db: %v, want ErrNotDatabase saying to restore a backup", err)
	}
	if after, _ := os.ReadFile(db); string(after) != string(before) {
		t.Error("the refused ward.db was changed")
	}
}
