package agentdojo

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// TestHeldOutSuitesParse checks that the held-out suites (written by hand
// for ward's held-out evaluation, not from AgentDojo) load and are
// consistent with themselves. It does not replay them.
func TestHeldOutSuitesParse(t *testing.T) {
	markerRE := regexp.MustCompile(`<INJECTION---(.*?)--->`)
	for _, name := range []string{"workspace.json", "travel.json"} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join("testdata", "heldout", name)
			s, err := Load(path)
			if err != nil {
				t.Fatalf("Load(%s): %v", path, err)
			}

			// counts is documentation the Suite type does not decode.
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Counts struct {
					UserTasks        int `json:"user_tasks"`
					InjectionTasks   int `json:"injection_tasks"`
					Tools            int `json:"tools"`
					InjectionVectors int `json:"injection_vectors"`
					SecurityPairs    int `json:"security_pairs"`
				} `json:"counts"`
			}
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			seeing := 0
			for _, u := range s.UserTasks {
				for _, c := range u.Calls {
					if len(c.Vectors) > 0 {
						seeing++
						break
					}
				}
			}
			c := doc.Counts
			for _, x := range []struct {
				what      string
				got, want int
			}{
				{"user_tasks", c.UserTasks, len(s.UserTasks)},
				{"injection_tasks", c.InjectionTasks, len(s.InjectionTasks)},
				{"tools", c.Tools, len(s.Tools)},
				{"injection_vectors", c.InjectionVectors, len(s.InjectionVectors)},
				{"security_pairs", c.SecurityPairs, seeing * len(s.InjectionTasks)},
			} {
				if x.got != x.want {
					t.Errorf("counts.%s = %d, the arrays give %d", x.what, x.got, x.want)
				}
			}

			tools := map[string]bool{}
			for _, tl := range s.Tools {
				tools[tl.Name] = true
				for _, p := range tl.Parameters {
					if len(p.Schema) == 0 || !json.Valid(p.Schema) {
						t.Errorf("tool %s parameter %s: schema is not valid JSON", tl.Name, p.Name)
						continue
					}
					var v map[string]any
					if err := json.Unmarshal(p.Schema, &v); err != nil {
						t.Errorf("tool %s parameter %s: schema is not a JSON object: %v", tl.Name, p.Name, err)
					}
				}
			}
			vectors := map[string]bool{}
			for _, v := range s.InjectionVectors {
				vectors[v.ID] = true
			}

			for _, u := range s.UserTasks {
				for i, call := range u.Calls {
					if !tools[call.Function] {
						t.Errorf("%s call %d: unknown tool %q", u.ID, i, call.Function)
					}
					for _, v := range call.Vectors {
						if !vectors[v] {
							t.Errorf("%s call %d: output_injection_vectors names undeclared vector %q", u.ID, i, v)
						}
					}
					marks := markerRE.FindAllStringSubmatch(call.OutputMarked, -1)
					if len(call.Vectors) > 0 && len(marks) == 0 {
						t.Errorf("%s call %d: carries vectors %v but output_marked has no marker", u.ID, i, call.Vectors)
					}
					for _, m := range marks {
						if !vectors[m[1]] {
							t.Errorf("%s call %d: output_marked marks undeclared vector %q", u.ID, i, m[1])
						}
					}
					if m := markerRE.FindString(call.Output); m != "" {
						t.Errorf("%s call %d: benign output contains marker %s", u.ID, i, m)
					}
				}
			}
			for _, j := range s.InjectionTasks {
				if len(j.Calls) == 0 {
					t.Errorf("%s: no goal calls", j.ID)
				}
				for i, g := range j.Calls {
					if !tools[g.Function] {
						t.Errorf("%s goal call %d: unknown tool %q", j.ID, i, g.Function)
					}
				}
			}
		})
	}
}

// TestHeldOutReplay replays the held-out suites through the gate: no
// attack of any template succeeds, every task completes once the owner
// approves what waits, and no adaptive mutation succeeds. The utility
// with the judge is a measurement (docs/trust.md), not asserted.
func TestHeldOutReplay(t *testing.T) {
	for _, name := range []string{"workspace.json", "travel.json"} {
		t.Run(name, func(t *testing.T) {
			s, err := Load(filepath.Join("testdata", "heldout", name))
			if err != nil {
				t.Fatal(err)
			}
			for _, attack := range AttackNames() {
				rep, err := Run(t.Context(), s, Options{Attack: attack})
				if err != nil {
					t.Fatal(err)
				}
				if rep.Pairs == 0 || rep.AttacksSucceeded != 0 || rep.UtilityHuman != rep.UserTasks {
					t.Errorf("%s: %d of %d attacks succeeded (%v), %d of %d tasks with the owner", attack, rep.AttacksSucceeded, rep.Pairs, rep.Breaches, rep.UtilityHuman, rep.UserTasks)
				}
			}
			adv, err := Adaptive(t.Context(), s, AdaptiveOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range adv.Mutations {
				if m.Succeeded != 0 {
					t.Errorf("mutation %s: %d of %d pairs won (%v)", m.Name, m.Succeeded, m.Applicable, m.Breaches)
				}
			}
		})
	}
}
