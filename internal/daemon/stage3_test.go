package daemon

import (
	"strings"
	"testing"

	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/sandbox"
	"github.com/wardhq/ward/internal/skill"
)

// TestStage3Require: [grimoire.sandbox] require reaches Stage 3; without
// it Stage 3 keeps the default requirement (nil).
func TestStage3Require(t *testing.T) {
	f, err := config.Parse("w.toml", []byte("[grimoire.sandbox]\nrequire = [\"userns\", \"mountns\", \"cgroup2\", \"memory\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := stage3(f.Grimoire.Sandbox, skill.NewLibrary())
	if err != nil {
		t.Fatal(err)
	}
	want := sandbox.MechUserNS | sandbox.MechMountNS | sandbox.MechCgroup2
	if st.Require == nil || st.Require.All != want || len(st.Require.AnyOf) != 1 {
		t.Errorf("Stage 3 requires %+v, want %s and a memory limit", st.Require, want)
	}
	st, err = stage3(config.Sandbox{}, skill.NewLibrary())
	if err != nil || st.Require != nil {
		t.Errorf("without the key: %+v, %v; want the default requirement", st.Require, err)
	}
}

// TestStage3StrategyComponents: a strategy rule may name a registered
// WASM component; one naming an unregistered component stops the start.
func TestStage3StrategyComponents(t *testing.T) {
	lib := skill.NewLibrary()
	if err := lib.Add(skill.Component{Name: "oversold_calm", Kind: skill.KindCondition, Text: "c", WASM: []byte("\x00asm\x01\x00\x00\x00")}); err != nil {
		t.Fatal(err)
	}
	st, err := stage3(config.Sandbox{Strategy: []string{"when component: oversold_calm then buy 10 %"}}, lib)
	if err != nil || len(st.Strategy) != 1 || st.Strategy[0].Conditions[0].Component != "oversold_calm" {
		t.Fatalf("stage3 = %+v, %v", st, err)
	}
	_, err = stage3(config.Sandbox{Strategy: []string{"when gas below 50 gwei, buy 10 %", "when component: kelly then buy 10 %"}}, lib)
	if err == nil || !strings.Contains(err.Error(), "grimoire.sandbox.strategy: rule 2") || !strings.Contains(err.Error(), "not registered") {
		t.Errorf("an unregistered component: %v", err)
	}
}
