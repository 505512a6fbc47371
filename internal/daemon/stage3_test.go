package daemon

import (
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
