package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/wardhq/ward/internal/audit"
	"github.com/wardhq/ward/internal/catalog"
	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/daemon"
	"github.com/wardhq/ward/internal/policy"
	"github.com/wardhq/ward/internal/policy/rules"
	"github.com/wardhq/ward/internal/store"
	"github.com/wardhq/ward/internal/tool"
	"github.com/wardhq/ward/internal/upstream"
)

// maxLine bounds one JSON Lines request (arguments are at most
// tool.MaxArgsSize).
const maxLine = tool.MaxArgsSize + 64<<10

// compileWith recompiles a loaded policy with a symlink resolver the caller
// owns (and must close). The policy and its hash are unchanged.
func compileWith(cfg *config.File, res *rules.Resolver) (*policy.Snapshot, error) {
	pc := cfg.Policy
	pc.Resolver = res
	return rules.Compile(pc)
}

// loadConfig loads the named file, or ward.toml in the working directory if
// there is one, or the embedded defaults.
func loadConfig(path string) (*config.File, error) {
	if path != "" {
		return config.Load(path)
	}
	if fileExists("ward.toml") {
		return config.Load("ward.toml")
	}
	return config.Default()
}

const checkHelp = `Evaluate tool-call requests against a policy without running them.

Reads JSON Lines from FILE (or standard input with - or no FILE) and writes
one decision per input line, in order. A request:

  {"tool": {"name": "transfer_credits", "category": "financial", "risk": "dangerous"},
   "args": {"to_address": "0x...", "amount_cents": 2500},
   "turn": {"id": "t1", "session_id": "s1", "input_source": "agent"},
   "state": {"balance_cents": 100000, "workdir": "/srv/agent",
             "spend": [{"category": "transfer", "amount_cents": 4000, "age_seconds": 600}],
             "executed": [{"tool": "transfer_credits", "count": 2, "scope": "turn"}]},
   "now": "2026-11-22T10:00:00Z"}

state (optional) seeds the tracked state for that one request; without it
the tracked state of the store (--data or --db) is used. now (optional) fixes the
evaluation time. Evaluations are not recorded unless --record is given.

A request that names only the tool takes its category, risk and tier from
ward's catalogue or, for an upstream tool (mcp_SERVER_TOOL) of a configured
[[upstream]] server, from its approved, pinned definition in the store (--db)
classified as ward serve registers it.
A malformed line prints {"line":N,"error":"..."} in its place, an error on
standard error, and makes the exit status 2.`

func policyCheck(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "policy check", "[FILE|-]", checkHelp)
	policyPath := fs.String("policy", "", "policy file (ward.toml format; default: ./ward.toml if present, else the embedded defaults)")
	fs.StringVar(policyPath, "config", "", "alias of --policy")
	data := dataFlag(fs, "data directory whose database holds the tracked state and audit trail")
	dbPath := dbFlag(fs)
	record := fs.Bool("record", false, "record each decision in the audit trail (origin \"check\")")
	if st, ok := parse(fs, args); !ok {
		return st
	}
	if fs.NArg() > 1 {
		return usageErr(io, "policy check takes at most one input file")
	}
	cfg, err := loadConfig(*policyPath)
	if err != nil {
		return usageErr(io, "%v", err)
	}
	in := io.In
	if name := fs.Arg(0); name != "" && name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return usageErr(io, "%v", err)
		}
		defer f.Close()
		in = f
	}

	resolver := rules.NewResolver()
	defer resolver.Close()
	snap, err := compileWith(cfg, resolver)
	if err != nil {
		return fail(io, "%v", err)
	}
	db := storeOf(cfg, *data, *dbPath)
	var st store.Store
	if *record || storeExists(db) {
		if !daemon.IsURL(db) {
			if err := os.MkdirAll(filepath.Dir(db), 0o700); err != nil {
				return fail(io, "%v", err)
			}
		}
		st, err = openStore(ctx, db, cfg.Store.Synchronous)
		if err != nil {
			return fail(io, "%v", err)
		}
		defer st.Close()
	}
	tracked := policy.NewTracker()
	if st != nil {
		if err := daemon.RestoreTracker(ctx, st, tracked, snap, time.Now()); err != nil {
			return fail(io, "%v", err)
		}
	}
	var rec *audit.Recorder
	if *record {
		ph := snap.Hash()
		if err := st.RecordPolicy(ctx, hex.EncodeToString(ph[:]), cfg.Source); err != nil {
			return fail(io, "record policy: %v", err)
		}
		rec, err = audit.NewRecorder(audit.Config{Log: st, Origin: audit.OriginCheck, DurableAll: true})
		if err != nil {
			return fail(io, "%v", err)
		}
	}

	known := catalogRefs()
	if st != nil && len(cfg.Upstream) > 0 {
		// Upstream tools resolve from their approved, pinned definitions.
		refs, err := upstream.ApprovedRefs(ctx, st, st, cfg.Upstream)
		if err != nil {
			return fail(io, "%v", err)
		}
		for name, ref := range refs {
			if _, native := known[name]; !native {
				known[name] = ref
			}
		}
	}
	eval := func(line []byte) (policy.Decision, error) { return evaluateLine(snap, tracked, known, line) }
	return checkStream(ctx, io, in, eval, rec)
}

// checkBatch is a run of consecutive input lines, decided together by one
// worker and written in input order.
type checkBatch struct {
	first int     // the line number of lines[0]
	arena []byte  // the lines' bytes
	ends  []int   // lines[i] is arena[ends[i-1]:ends[i]]
	bad   []error // a line that could not be read (too long), by index
	res   []checkResult
	done  chan struct{}
}

type checkResult struct {
	d   policy.Decision
	err error
	set bool // a decision or an error (blank lines have neither)
}

func (b *checkBatch) line(i int) []byte {
	start := 0
	if i > 0 {
		start = b.ends[i-1]
	}
	return b.arena[start:b.ends[i]]
}

// checkBatchLines bounds a batch; a batch is also handed over as soon as
// no more input is waiting, so that a client streaming one request at a
// time gets each answer at once.
const checkBatchLines = 256

// checkStream decides the request lines of in, on every core, and writes
// one answer per line in input order (with rec, each decision is recorded
// in that order before its answer is written). It returns the exit status.
func checkStream(ctx context.Context, cio IO, in io.Reader, eval func([]byte) (policy.Decision, error), rec *audit.Recorder) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := runtime.GOMAXPROCS(0)
	work := make(chan *checkBatch, workers)
	order := make(chan *checkBatch, 2*workers)
	// Written batches go back to the reader, with their buffers: a line
	// then costs no allocation of its own here.
	free := make(chan *checkBatch, 2*workers+2)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() { decideBatches(work, eval) })
	}
	written := make(chan int, 1)
	go func() { written <- writeChecks(ctx, cancel, cio, rec, order, free) }()
	readErr := readChecks(ctx, in, work, order, free)
	close(work)
	close(order)
	wg.Wait()
	status := <-written
	if readErr != nil {
		fmt.Fprintf(cio.Err, "ward: read input: %v\n", readErr)
		return exitFail
	}
	return status
}

// decideBatches is a worker: it decides each line of each batch from
// work, then marks the batch done.
func decideBatches(work <-chan *checkBatch, eval func([]byte) (policy.Decision, error)) {
	for b := range work {
		for i := range b.ends {
			switch line := b.line(i); {
			case b.bad[i] != nil:
				b.res[i] = checkResult{err: b.bad[i], set: true}
			case len(bytes.TrimSpace(line)) > 0:
				d, err := eval(line)
				b.res[i] = checkResult{d: d, err: err, set: true}
			}
		}
		close(b.done)
	}
}

// writeChecks is the writer: it answers the batches from order in input
// order, flushed whenever it has caught up (after every batch when rec
// records each decision), and hands each written batch back on free. It
// returns the exit status; a failed audit record or write cancels ctx and
// drains the rest unwritten.
func writeChecks(ctx context.Context, cancel context.CancelFunc, cio IO, rec *audit.Recorder, order <-chan *checkBatch, free chan<- *checkBatch) (status int) {
	out := bufio.NewWriter(cio.Out)
	status = exitOK
	var buf []byte
	defer func() {
		if err := out.Flush(); err != nil && status == exitOK {
			fmt.Fprintf(cio.Err, "ward: write output: %v\n", err)
			status = exitFail
		}
	}()
	for b := range order {
		<-b.done
		if status == exitFail {
			continue // drain
		}
		for i, r := range b.res {
			if !r.set {
				continue
			}
			n := b.first + i
			if r.err != nil {
				status = exitUsage
				fmt.Fprintf(cio.Err, "ward: line %d: %v\n", n, r.err)
				buf = appendCheckError(buf[:0], n, r.err)
				out.Write(buf)
				continue
			}
			buf = r.d.AppendJSON(buf[:0])
			if rec != nil {
				recID, err := rec.Record(ctx, &r.d)
				if err != nil {
					out.Flush()
					fmt.Fprintf(cio.Err, "ward: line %d: %v\n", n, err)
					status = exitFail
					cancel()
					break
				}
				buf = append([]byte(`{"id":"`+recID+`",`), buf[1:]...)
			}
			buf = append(buf, '\n')
			out.Write(buf)
		}
		if len(order) == 0 || rec != nil {
			if err := out.Flush(); err != nil {
				fmt.Fprintf(cio.Err, "ward: write output: %v\n", err)
				status = exitFail
				cancel()
			}
		}
		b.recycle(free)
	}
	return status
}

// appendCheckError appends the answer to line n that could not be
// decided.
func appendCheckError(buf []byte, n int, err error) []byte {
	buf = append(buf, `{"line":`...)
	buf = strconv.AppendInt(buf, int64(n), 10)
	buf = append(buf, `,"error":`...)
	msg, _ := json.Marshal(err.Error())
	buf = append(buf, msg...)
	return append(buf, "}\n"...)
}

// recycle empties b, keeping its buffers, and offers it back on free.
func (b *checkBatch) recycle(free chan<- *checkBatch) {
	clear(b.res)
	b.arena, b.ends, b.bad, b.res = b.arena[:0], b.ends[:0], b.bad[:0], b.res[:0]
	select {
	case free <- b:
	default:
	}
}

// readChecks is the reader: it cuts in into batches of lines, each sent
// first to order (for the writer) and then to work (for a worker), reusing
// the batches that come back on free. It stops at the end of the input,
// at a read error (returned) or when ctx ends.
func readChecks(ctx context.Context, in io.Reader, work, order chan<- *checkBatch, free <-chan *checkBatch) error {
	lines := newLineReader(in, maxLine)
	next := 1
	newBatch := func() *checkBatch {
		select {
		case b := <-free:
			b.first, b.done = next, make(chan struct{})
			return b
		default:
			return &checkBatch{first: next, done: make(chan struct{})}
		}
	}
	b := newBatch()
	send := func() bool {
		n := len(b.ends) // read before b is handed on: the writer recycles it
		if n == 0 {
			return true
		}
		if cap(b.res) >= n {
			b.res = b.res[:n] // cleared by recycle
		} else {
			b.res = make([]checkResult, n)
		}
		select {
		case order <- b:
		case <-ctx.Done():
			return false
		}
		select {
		case work <- b:
		case <-ctx.Done():
			close(b.done) // the writer is draining
			return false
		}
		next += n
		b = newBatch()
		return true
	}
	var readErr error
	for {
		line, err := lines.next()
		if errors.Is(err, errEOF) {
			break
		}
		if err != nil && !errors.Is(err, errLineTooLong) {
			readErr = err
			break
		}
		var bad error
		if err != nil {
			bad, line = err, nil
		}
		b.arena = append(b.arena, line...)
		b.ends = append(b.ends, len(b.arena))
		b.bad = append(b.bad, bad)
		if (len(b.ends) >= checkBatchLines || lines.r.Buffered() == 0) && !send() {
			break
		}
	}
	send()
	return readErr
}

// evaluateLine decides one request line. A tool that known describes (ward's
// catalogue) takes its category, risk and tier from there where the
// request leaves them out; known may be nil.
func evaluateLine(snap *policy.Snapshot, tracked *policy.Tracker, known map[string]tool.Ref, line []byte) (policy.Decision, error) {
	cr, ok := policy.QuickCheckRequest(line)
	if !ok {
		// Anything but the usual shape is decoded by encoding/json, for
		// its exact result or error.
		// (into its own variable: decoding into cr would move cr to the
		// heap on the usual path too).
		var full policy.CheckRequest
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&full); err != nil {
			return policy.Decision{}, jsonFieldError(err)
		}
		if dec.More() {
			return policy.Decision{}, errors.New("more than one JSON value on the line")
		}
		cr = full
	}
	if ref, ok := known[cr.Tool.Name]; ok {
		cr.Complete(ref)
	}
	return cr.Evaluate(snap, tracked, time.Time{})
}

// catalogRefs returns what the policy sees of each tool of ward's
// catalogue, by name. Upstream tools are added from the store
// (upstream.ApprovedRefs).
func catalogRefs() map[string]tool.Ref {
	all := catalog.All()
	out := make(map[string]tool.Ref, len(all))
	for _, t := range all {
		out[t.Def.Name] = t.Def.Ref()
	}
	return out
}

func jsonFieldError(err error) error {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		if field == "" {
			field = "(request)"
		}
		return &policy.FieldError{Field: field, Msg: fmt.Sprintf("expected %s, got JSON %s", te.Type, te.Value)}
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("invalid JSON at byte %d: %v", se.Offset, se.Error())
	}
	if msg := err.Error(); strings.HasPrefix(msg, "json: unknown field ") {
		return &policy.FieldError{Field: strings.Trim(strings.TrimPrefix(msg, "json: unknown field "), `"`), Msg: "unknown field"}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("incomplete JSON")
	}
	return err
}

const lintHelp = `Validate a policy file (ward.toml format) in one pass: unknown keys and
wrong types, every section's values, rule shapes, CEL syntax, CEL type
errors against the parameters of the tools a rule names (ward's catalogue,
and the upstream tools pinned in the --data directory's database), and (as warnings)
tools a rule names that ward does not know. Every problem is printed as
FILE:LINE:COL: key: message. Exit status 1 if there are errors; warnings
alone leave it 0.`

func policyLint(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "policy lint", "FILE", lintHelp)
	asJSON := fs.Bool("json", false, "print one JSON object per problem (or one summary object)")
	data := dataFlag(fs, "data directory whose pinned upstream tool schemas type-check rules that name them (if it exists)")
	if st, ok := parse(fs, args); !ok {
		return st
	}
	if fs.NArg() != 1 {
		return usageErr(io, "policy lint takes exactly one file")
	}
	name := fs.Arg(0)
	// The store is the one the file names in [store] url, if it can
	// be read that far, else the data directory's.
	var pre *config.File
	if raw, err := os.ReadFile(name); err == nil {
		pre, _ = config.Parse(name, raw)
	}
	schemas, closeStore := pinnedSchemas(ctx, storeOf(pre, *data, ""))
	defer closeStore()
	f, err := config.LoadWith(name, schemas)
	if err != nil {
		var ce *config.Error
		if !errors.As(err, &ce) {
			return usageErr(io, "%v", err)
		}
		if !*asJSON {
			fmt.Fprintln(io.Out, ce.Error())
			return exitFail
		}
		enc := json.NewEncoder(io.Out)
		for _, d := range ce.Diags {
			enc.Encode(lintJSON(name, d))
		}
		return exitFail
	}
	h := f.Snapshot.Hash()
	if *asJSON {
		enc := json.NewEncoder(io.Out)
		for _, d := range f.Warnings {
			enc.Encode(lintJSON(name, d))
		}
		enc.Encode(map[string]any{"file": name, "ok": true,
			"policy_hash": hex.EncodeToString(h[:]), "rules": len(f.Snapshot.Rules()), "warnings": len(f.Warnings)})
		return exitOK
	}
	if len(f.Warnings) > 0 {
		fmt.Fprintln(io.Out, (&config.Error{File: name, Diags: f.Warnings}).Error())
	}
	fmt.Fprintf(io.Out, "%s: ok (policy %s, %d rules)\n", name, hex.EncodeToString(h[:6]), len(f.Snapshot.Rules()))
	return exitOK
}

// pinnedSchemas returns the input schemas of the upstream tools pinned in
// the database at db, if there is one (nil otherwise), and what closes it.
// A schema that cannot be read leaves its tool untyped.
func pinnedSchemas(ctx context.Context, db string) (func(string) json.RawMessage, func()) {
	if !storeExists(db) {
		return nil, func() {}
	}
	st, err := openStore(ctx, db, "")
	if err != nil {
		return nil, func() {}
	}
	return func(name string) json.RawMessage {
		s, ok, err := upstream.PinnedInputSchema(ctx, st, st, name)
		if err != nil || !ok {
			return nil
		}
		return s
	}, func() { st.Close() }
}

// lintJSON is one problem of ward policy lint --json.
func lintJSON(file string, d config.Diagnostic) map[string]any {
	severity := "error"
	if d.Warning {
		severity = "warning"
	}
	return map[string]any{"file": file, "line": d.Line, "col": d.Col, "key": d.Key, "message": d.Msg, "severity": severity}
}

func policyShow(_ context.Context, io IO, args []string) int {
	fs := flags(io, "policy show", "", "Print the compiled policy's rules in evaluation order.")
	policyPath := fs.String("policy", "", "policy file (default: ./ward.toml if present, else the embedded defaults)")
	asJSON := fs.Bool("json", false, "print JSON")
	if st, ok := parse(fs, args); !ok {
		return st
	}
	cfg, err := loadConfig(*policyPath)
	if err != nil {
		return usageErr(io, "%v", err)
	}
	h := cfg.Snapshot.Hash()
	type ruleOut struct {
		ID        string   `json:"id"`
		Priority  int      `json:"priority"`
		AppliesTo string   `json:"applies_to"`
		Selects   []string `json:"selects,omitempty"`
		Stateful  bool     `json:"stateful"`
	}
	var out []ruleOut
	for _, r := range cfg.Snapshot.Rules() {
		ro := ruleOut{ID: r.ID, Priority: r.Priority, AppliesTo: r.Applies.By.String(), Stateful: r.Stateful}
		ro.Selects = append(ro.Selects, r.Applies.Names...)
		for _, c := range r.Applies.Categories {
			ro.Selects = append(ro.Selects, string(c))
		}
		for _, l := range r.Applies.Risks {
			ro.Selects = append(ro.Selects, l.String())
		}
		out = append(out, ro)
	}
	if *asJSON {
		b, _ := json.MarshalIndent(struct {
			PolicyHash string    `json:"policy_hash"`
			Rules      []ruleOut `json:"rules"`
		}{hex.EncodeToString(h[:]), out}, "", "  ")
		fmt.Fprintln(io.Out, string(b))
		return exitOK
	}
	fmt.Fprintf(io.Out, "policy %s\n", hex.EncodeToString(h[:]))
	for _, r := range out {
		fmt.Fprintf(io.Out, "%5d  %-40s %s %s\n", r.Priority, r.ID, r.AppliesTo, strings.Join(r.Selects, ","))
	}
	return exitOK
}

var (
	errEOF         = io.EOF
	errLineTooLong = errors.New("line too long")
)

// lineReader reads lines of at most max bytes; a longer line is skipped
// whole and reported as errLineTooLong, and reading continues after it.
type lineReader struct {
	r   *bufio.Reader
	max int
	buf []byte
}

func newLineReader(r io.Reader, max int) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

func (l *lineReader) next() ([]byte, error) {
	l.buf = l.buf[:0]
	tooLong := false
	for {
		chunk, err := l.r.ReadSlice('\n')
		if !tooLong {
			if len(l.buf)+len(chunk) > l.max {
				tooLong = true
				l.buf = l.buf[:0]
			} else {
				l.buf = append(l.buf, chunk...)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err == nil:
		case errors.Is(err, io.EOF):
			if len(chunk) == 0 && len(l.buf) == 0 && !tooLong {
				return nil, errEOF
			}
		default:
			return nil, err
		}
		if tooLong {
			return nil, fmt.Errorf("%w (more than %d bytes)", errLineTooLong, l.max)
		}
		return bytes.TrimRight(l.buf, "\r\n"), nil
	}
}
