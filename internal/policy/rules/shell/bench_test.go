package shell

import "testing"

func BenchmarkAnalyzeBenign(b *testing.B) {
	env := testEnv()
	for _, cmd := range []string{
		"git status",
		"ls -la src/",
		"go test ./internal/... -run TestFoo -count=1",
		"grep -rn 'func main' --include='*.go' . | head -n 20",
		`curl -s https://example.com/api/v1/items?limit=10 -H "Accept: application/json" -o out.json`,
	} {
		b.Run(cmd, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Analyze(cmd, env); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkAnalyzeForbidden(b *testing.B) {
	env := testEnv()
	for _, cmd := range []string{
		"rm -rf /",
		"sudo reboot",
		"r''m${IFS}-rf${IFS}/",
		"echo cm0gLXJmIC8= | base64 -d | bash",
		`python3 -c "import os; os.system('rm -rf /')"`,
	} {
		b.Run(cmd, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Analyze(cmd, env); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkParse(b *testing.B) {
	const cmd = `for f in $(ls *.go); do echo "$f" | sed -e 's/a/b/' > "/tmp/$f.out" 2>&1; done`
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(cmd); err != nil {
			b.Fatal(err)
		}
	}
}
