// Package cli implements ward's command line: it parses arguments, wires
// the packages a command needs and prints results. cmd/ward only calls Main.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// Exit statuses.
const (
	exitOK    = 0
	exitFail  = 1 // the command ran and failed (or found problems)
	exitUsage = 2 // bad invocation or malformed input
)

// IO is where a command reads and writes.
type IO struct {
	In       io.Reader
	Out, Err io.Writer
}

type command struct {
	name    string
	summary string
	run     func(ctx context.Context, io IO, args []string) int
}

func commands() []command {
	return []command{
		{"policy check", "evaluate tool-call requests (JSON Lines) against a policy: the what-if contract", policyCheck},
		{"policy lint", "validate a policy file and report every problem with line and column", policyLint},
		{"policy show", "print the compiled policy's rules in evaluation order", policyShow},
		{"audit query", "query the audit trail of decisions, or run a named report", auditQuery},
		{"audit verify", "check the trust audit log's hash chain and name the first bad row", auditVerify},
		{"audit archive", "move audit rows older than the retention to compressed archive files", auditArchive},
		{"bench policy", "benchmark the policy engine on the seed's mixed workload", benchPolicy},
		{"bench gate", "benchmark the tool gate on the dev chain: read overhead, swap preview, commit", benchGate},
		{"bench serve", "benchmark ward serve: startup, idle memory, MCP round trip, shutdown", benchServe},
		{"bench soak", "run agents against the gate on the embedded defaults for a while: throughput, p50/p99, memory, descriptors and database growth over time", benchSoak},
		{"db check", "check a data directory's database: SQLite's consistency check, schema version, every table present", dbCheck},
		{"db backup", "write a consistent copy of a data directory's database while ward runs (SQLite's online backup)", dbBackup},
		{"tools list", "print the tools registered for a profile", toolsList},
		{"tools doc", "print a Markdown reference of the tools (tier, risk, category, chains, parameters), or write it into docs/tools.md", toolsDoc},
		{"tools add", "register a compiled WebAssembly module as a tool: check it, pin it, copy it into the data directory, append [[wasm_tool]]", toolsAdd},
		{"serve", "run the daemon: MCP, A2A, the HTTP API and the dashboard over the tool gate", serve},
		{"mcp", "serve MCP over standard input and output (one agent, in process, no token)", mcpStdio},
		{"tui", "watch a running ward serve in the terminal: calls, progress, decisions, quarantine (approve/reject)", tuiCmd},
		{"token create", "create a bearer token for a role (owner, agent, peer), optionally expiring", tokenCreate},
		{"token list", "list the tokens: id, name, role, created, expires, revoked, last used (never the secret)", tokenList},
		{"token revoke", "revoke a token by id or name: refused everywhere within a second", tokenRevoke},
		{"token rotate", "give a token a new secret (same id, name and role); the old one is refused", tokenRotate},
		{"safe list", "list the Safe transactions a running ward serve holds awaiting owners' signatures", safeList},
		{"safe sign", "add an owner's signature to a Safe transaction of a running ward serve; it executes at the Safe's threshold", safeSign},
		{"wallet pending", "list the owner's transactions (session-key grants and revocations) a running ward serve holds for its ERC-4337 account's owner", walletPending},
		{"upstream approve", "approve the changed tool definitions of an upstream MCP server", upstreamApprove},
		{"upstream list", "list the configured upstream MCP servers: their tools, pinned hashes and changes waiting for approval", upstreamList},
		{"ingest", "run knowledge entries (JSON Lines) through the ingestion pipeline: oracle, provenance, screens, consensus", ingestCmd},
		{"grimoire export", "write the Grimoire (self and external entries) to a zip or tar.gz archive with a manifest", grimoireExport},
		{"grimoire component add", "register a compiled WebAssembly module as a Stage 3 skill component (a condition or a sizing): check it, pin it, copy it into the data directory, append [[grimoire.wasm_component]]", componentAdd},
		{"grimoire import", "import a Grimoire archive: refuse unsafe archives, ingest entries as external knowledge, all or nothing", grimoireImport},
		{"eval poisoning", "score knowledge ingestion on memory-poisoning data: FNR and FPR per attack class", evalPoisoning},
		{"eval generate", "write a synthetic poisoned-entry suite (five attack classes, clean counterparts, a Grimoire seed) as JSON Lines", evalGenerate},
		{"eval agentdojo", "replay an AgentDojo suite through the gate: utility and attack success", evalAgentDojo},
		{"eval adaptive", "replay an AgentDojo suite's attacks mutated by an attacker who read ward's source: successes per mutation", evalAdaptive},
		{"demo", "run the tool gate's end-to-end scenario on the embedded dev chain", demo},
		{"chain deploy", "deploy the published Uniswap V2/V3 and Aave V3 bytecode, test tokens and feeds to a dev node; write its address book", chainDeploy},
		{"client config", "print the JSON that connects Claude, Cursor or VS Code to ward serve (HTTP) or ward mcp (stdio)", clientConfig},
		{"version", "print ward's version, commit and Go version (also ward --version)", version},
	}
}

// Version is set at build time with -ldflags "-X .../cli.Version=...";
// left at "dev", ward reports the module version Go stamped into the
// binary (see buildInfo).
var Version = "dev"

// Main runs ward with the given arguments (without the program name) and
// returns the exit status.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	std := IO{In: stdin, Out: stdout, Err: stderr}
	if len(args) > 0 && (args[0] == "--version" || args[0] == "-version") {
		return version(ctx, std, args[1:])
	}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	for _, c := range commands() {
		words := strings.Fields(c.name)
		if len(args) >= len(words) && slicesEqual(args[:len(words)], words) {
			return c.run(ctx, std, args[len(words):])
		}
	}
	// A group name alone ("ward policy") lists its commands.
	var group []command
	for _, c := range commands() {
		if strings.HasPrefix(c.name, args[0]+" ") {
			group = append(group, c)
		}
	}
	if len(group) > 0 {
		fmt.Fprintf(stderr, "ward %s: missing or unknown subcommand", args[0])
		if len(args) > 1 {
			fmt.Fprintf(stderr, " %q", args[1])
		}
		fmt.Fprintln(stderr)
		for _, c := range group {
			fmt.Fprintf(stderr, "  ward %-14s %s\n", c.name, c.summary)
		}
		return exitUsage
	}
	fmt.Fprintf(stderr, "ward: unknown command %q (run 'ward help')\n", args[0])
	return exitUsage
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "ward: a safety runtime between an autonomous agent and its tools.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Usage: ward <command> [flags] [arguments]")
	fmt.Fprintln(w)
	cs := commands()
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].name < cs[j].name })
	for _, c := range cs {
		fmt.Fprintf(w, "  ward %-14s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'ward <command> --help' for a command's flags.")
}

// flags returns a FlagSet that prints a command's usage on --help.
func flags(io IO, name, argsUsage, help string) *flag.FlagSet {
	fs := flag.NewFlagSet("ward "+name, flag.ContinueOnError)
	fs.SetOutput(io.Err)
	fs.Usage = func() {
		fmt.Fprintf(io.Err, "Usage: ward %s [flags] %s\n\n%s\n\nFlags:\n", name, argsUsage, help)
		fs.PrintDefaults()
	}
	return fs
}

// parse parses flags; it returns (status, false) when the command should
// stop (--help or a bad flag).
func parse(fs *flag.FlagSet, args []string) (int, bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK, false
		}
		return exitUsage, false
	}
	return 0, true
}

// parseInterleaved parses args like parse, but flags may also follow the
// positional arguments ("ward ingest FILE --json"); fs.Args() is then the
// positional arguments in order. A "--" ends the flags as usual.
func parseInterleaved(fs *flag.FlagSet, args []string) (int, bool) {
	var pos []string
	for {
		if st, ok := parse(fs, args); !ok {
			return st, false
		}
		if fs.NArg() == 0 {
			break
		}
		rest := fs.Args()
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			pos = append(pos, rest...) // everything after "--" is positional
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	return parse(fs, append([]string{"--"}, pos...))
}

func fail(io IO, format string, args ...any) int {
	fmt.Fprintf(io.Err, "ward: "+format+"\n", args...)
	return exitFail
}

func usageErr(io IO, format string, args ...any) int {
	fmt.Fprintf(io.Err, "ward: "+format+"\n", args...)
	return exitUsage
}

// fileExists reports whether path names an existing file.
func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
