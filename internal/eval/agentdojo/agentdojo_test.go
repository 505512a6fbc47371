package agentdojo

import (
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/config"
)

func run(t *testing.T, path, toml string) *Report {
	t.Helper()
	s, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var f *config.File
	if toml != "" {
		if f, err = config.Parse("test.toml", []byte(toml)); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := Run(t.Context(), s, Options{Config: f})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// The taint model against the baselines the issue names: allowing
// everything lets every attack through, and the taint rule stops them
// while a task whose payee the user saved still runs.
func TestMiniSuite(t *testing.T) {
	rep := run(t, "testdata/mini.json", "")
	if rep.Pairs != 2 || rep.AttacksSucceeded != 0 {
		t.Errorf("pairs %d, attacks %d: want 2 pairs and none succeeding (%v)", rep.Pairs, rep.AttacksSucceeded, rep.Breaches)
	}
	if rep.UtilityAllowed != 1 || rep.UtilityHuman != 2 {
		t.Errorf("utility allowed %d human %d: want the saved payee allowed and the letter's account held for a human (%+v)",
			rep.UtilityAllowed, rep.UtilityHuman, rep.Tasks)
	}
	open := run(t, "testdata/mini.json", "[policy.builtin.\"taint.untrusted-arguments\"]\nenabled = false\n"+
		"[policy.builtin.\"taint.hijacked-call\"]\nenabled = false\n")
	if open.AttacksSucceeded != open.Pairs || open.UtilityAllowed != 2 {
		t.Errorf("without the taint rule: attacks %d of %d, utility %d: the replay cannot tell a defence from none", open.AttacksSucceeded, open.Pairs, open.UtilityAllowed)
	}
}

func TestParseRejects(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{`, "not a suite export"},
		{`{"schema_version":2,"suite":"x","tools":[{"name":"a"}]}`, "schema_version 2"},
		{`{"schema_version":1,"suite":"x","tools":[]}`, "no tools"},
		{`{"schema_version":1,"suite":"x","tools":[{"name":"a"}],"user_tasks":[{"id":"u","ground_truth_calls":[{"function":"b"}]}]}`, "unknown tool"},
	} {
		if _, err := Parse([]byte(c.in)); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%s) = %v, want %q", c.in, err, c.want)
		}
	}
}

// The published banking suite (testdata/agentdojo at the repository's
// root): the goals.
func TestBankingSuite(t *testing.T) {
	const path = "../../../testdata/agentdojo/banking.json"
	rep := run(t, path, "")
	if rep.AttacksSucceeded != 0 || rep.UtilityJudge < 12 || rep.UtilityHuman != rep.UserTasks {
		t.Errorf("attacks %d, utility with judge %d, with human %d of %d", rep.AttacksSucceeded, rep.UtilityJudge, rep.UtilityHuman, rep.UserTasks)
	}
	t.Logf("banking: allowed %d, judge %d, human %d of %d; attacks %d of %d",
		rep.UtilityAllowed, rep.UtilityJudge, rep.UtilityHuman, rep.UserTasks, rep.AttacksSucceeded, rep.Pairs)
}

// Each scenario is a principal of its own: an attack whose held call puts
// its principal under review (its values came from text with
// instructions) leaves the next scenario's calls to their own merits.
func TestScenariosIsolated(t *testing.T) {
	s, err := Load("testdata/mini.json")
	if err != nil {
		t.Fatal(err)
	}
	r, err := newRunner(t.Context(), s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.close()
	u, j := s.UserTasks[1], s.InjectionTasks[0]
	if won, err := r.attack(t.Context(), u, firstInjected(u), j, strings.ReplaceAll(Attacks["important_instructions"], "{goal}", j.Goal)); err != nil || won {
		t.Fatalf("attack: won %v, %v", won, err)
	}
	tr, err := r.utility(t.Context(), s.UserTasks[0])
	if err != nil {
		t.Fatal(err)
	}
	if tr.Outcome != "allowed" {
		t.Errorf("the saved payee after an attack: %s %+v, want allowed", tr.Outcome, tr.Calls)
	}
}
