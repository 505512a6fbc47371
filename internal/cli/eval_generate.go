package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/wardhq/ward/internal/eval/generate"
)

const evalGenerateHelp = `Writes a synthetic memory-poisoning suite (seed 001 §14.1) as JSON Lines:
seed.jsonl, the clean Grimoire, and one file per attack class (agentpoison,
minja, memorygraft, confidence_inflation, semantic_contradiction), each
holding the class's poison at the seed's volumes and as many clean
counterparts of the same domains and shapes. The same seed always writes
the same files. Score them with the command this prints, which runs them
through the pipeline exactly as the regression gate
(internal/eval/generate's TestRegressionGate) does: each class file needs
its own --incoming, and a shell glob of DIR/*.jsonl would also ingest
seed.jsonl.`

func evalGenerate(_ context.Context, io IO, args []string) int {
	fs := flags(io, "eval generate", "", evalGenerateHelp)
	seed := fs.Uint64("seed", generate.GateSeed, "generator seed (the regression gate scores seed 1)")
	out := fs.String("out", "adversarial", "directory to write the JSON Lines files to (made if missing)")
	if st, ok := parse(fs, args); !ok {
		return st
	}
	if fs.NArg() != 0 {
		return usageErr(io, "unexpected arguments %q", fs.Args())
	}
	s := generate.Generate(*seed)
	paths, err := s.WriteDir(*out)
	if err != nil {
		return fail(io, "%v", err)
	}
	fmt.Fprintf(io.Out, "seed %d: %s, %d Grimoire seeds\n", *seed, paths[0], len(s.Grimoire))
	cmd := []string{"ward eval poisoning --grimoire " + paths[0]}
	for i, f := range s.Files {
		poison := 0
		for _, r := range f.Rows {
			if r.Label == generate.LabelPoison {
				poison++
			}
		}
		fmt.Fprintf(io.Out, "%-26s %4d poison, %4d clean\n", filepath.Base(paths[1+i]), poison, len(f.Rows)-poison)
		cmd = append(cmd, "--incoming "+paths[1+i])
	}
	fmt.Fprintf(io.Out, "score them with:\n  %s\n", strings.Join(cmd, " \\\n    "))
	return exitOK
}
