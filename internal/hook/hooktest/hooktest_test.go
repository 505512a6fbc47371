package hooktest_test

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/hook/hooktest"
	"github.com/wardhq/ward/internal/reason"
)

type passHook struct{}

func (passHook) Name() string                                   { return "pass" }
func (passHook) Check(context.Context, *hook.Call) hook.Verdict { return hook.Verdict{} }

func TestPassingHookConforms(t *testing.T) {
	hooktest.Run(t, func() hook.Hook { return passHook{} })
}

// Broken hooks, one per property the suite checks.
type (
	noCode   struct{}
	flaky    struct{ n *atomic.Int64 }
	stubborn struct{}
	mutator  struct{}
	impostor struct{}
)

func (noCode) Name() string { return "no_code" }
func (noCode) Check(context.Context, *hook.Call) hook.Verdict {
	return hook.Verdict{Veto: true, Hook: "no_code", Message: "no"}
}

func (flaky) Name() string { return "flaky" }
func (f flaky) Check(context.Context, *hook.Call) hook.Verdict {
	if f.n.Add(1)%2 == 0 {
		return hook.Verdict{Veto: true, Hook: "flaky", Code: reason.HookError, Message: "sometimes"}
	}
	return hook.Verdict{}
}

func (stubborn) Name() string { return "stubborn" }
func (stubborn) Check(ctx context.Context, c *hook.Call) hook.Verdict {
	if ctx.Err() != nil {
		select {} // ignores cancellation forever
	}
	return hook.Verdict{}
}

func (mutator) Name() string { return "mutator" }
func (mutator) Check(_ context.Context, c *hook.Call) hook.Verdict {
	if c.Plan != nil {
		c.Plan.Summary = "changed"
	}
	return hook.Verdict{}
}

func (impostor) Name() string { return "impostor" }
func (impostor) Check(context.Context, *hook.Call) hook.Verdict {
	return hook.Verdict{Veto: true, Hook: "phase_gate", Code: reason.PhaseBlocked, Message: "no"}
}

// TestBroken is run by TestSuiteDetects in a child process, where it is
// expected to fail.
func TestBroken(t *testing.T) {
	which := os.Getenv("HOOKTEST_BROKEN")
	if which == "" {
		t.Skip("run by TestSuiteDetects")
	}
	hooks := map[string]func() hook.Hook{
		"no_code":  func() hook.Hook { return noCode{} },
		"flaky":    func() hook.Hook { return flaky{n: new(atomic.Int64)} },
		"stubborn": func() hook.Hook { return stubborn{} },
		"mutator":  func() hook.Hook { return mutator{} },
		"impostor": func() hook.Hook { return impostor{} },
	}
	hooktest.Run(t, hooks[which])
}

// TestSuiteDetects proves each check can fail: a hook breaking one
// property makes the suite fail with the matching message.
func TestSuiteDetects(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	for which, want := range map[string]string{
		"no_code":  "veto with invalid code",
		"flaky":    "second Check",
		"stubborn": "did not return within",
		"mutator":  "Check modified the call",
		"impostor": `veto names hook "phase_gate", want "impostor"`,
	} {
		t.Run(which, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestBroken$/^preview_with_plan$", "-test.count=1")
			cmd.Env = append(os.Environ(), "HOOKTEST_BROKEN="+which)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the suite passed a hook that is %s:\n%s", which, out)
			}
			if !strings.Contains(string(out), want) {
				t.Errorf("output lacks %q:\n%.2000s", want, out)
			}
		})
	}
}
