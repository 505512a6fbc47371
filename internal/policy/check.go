package policy

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/tool"
)

// CheckRequest is one what-if request: a line of `ward policy check` and
// the body of POST /v1/policy/check. It evaluates against a snapshot and
// either the tracked state it is given or the state it seeds itself.
type CheckRequest struct {
	Tool struct {
		Name     string `json:"name"`
		Category string `json:"category"`
		Risk     string `json:"risk"`
		Tier     string `json:"tier"`
	} `json:"tool"`
	Args json.RawMessage `json:"args"`
	Turn struct {
		ID          string `json:"id"`
		SessionID   string `json:"session_id"`
		InputSource string `json:"input_source"`
	} `json:"turn"`
	State   *CheckState `json:"state"`
	Workdir string      `json:"workdir"`
	Now     string      `json:"now"`

	// args is Args already decoded by QuickCheckRequest, in the same pass
	// as the line; nil means Evaluate decodes Args.
	args *tool.Args
}

// CheckState seeds the trackers for one what-if evaluation.
type CheckState struct {
	BalanceCents *int64 `json:"balance_cents"`
	Workdir      string `json:"workdir"`
	Spend        []struct {
		Category    string  `json:"category"`
		AmountCents int64   `json:"amount_cents"`
		AgeSeconds  float64 `json:"age_seconds"`
	} `json:"spend"`
	Executed []struct {
		Tool       string  `json:"tool"`
		Count      int     `json:"count"`
		Scope      string  `json:"scope"`
		AgeSeconds float64 `json:"age_seconds"`
	} `json:"executed"`
}

// FieldError names the field of a what-if request that is wrong.
type FieldError struct {
	Field string
	Msg   string
}

func (e *FieldError) Error() string { return "field " + e.Field + ": " + e.Msg }

// MaxSeeded bounds the executions one what-if request may seed.
const MaxSeeded = 100_000

// QuickCheckRequest decodes the usual what-if request line (tool, args,
// turn, workdir and now; no seeded state) without reflection, for the
// streaming path of ward policy check. It reports false for anything it is
// not sure it reads exactly as encoding/json with unknown fields refused
// would (another key, another type, a seeded state, a duplicate key, text
// that is not valid UTF-8...): the caller then decodes the line with
// encoding/json, which gives the same result or the precise error.
// The arguments are decoded (validated, canonicalised and hashed) in the
// same pass as the line, as tool.ParseArgs would decode them; the
// request's Args is a slice of line, not a copy.
func QuickCheckRequest(line []byte) (CheckRequest, bool) {
	var cr CheckRequest
	top, err := tool.ParseEnvelope(line, "args")
	if err != nil || top.Len() == 0 {
		return cr, false
	}
	for i := range top.Len() {
		f := top.Field(i)
		ok := true
		switch f.Key {
		case "tool":
			ok = strFields(f.Value, func(k, v string) bool {
				switch k {
				case "name":
					cr.Tool.Name = v
				case "category":
					cr.Tool.Category = v
				case "risk":
					cr.Tool.Risk = v
				case "tier":
					cr.Tool.Tier = v
				default:
					return false
				}
				return true
			})
		case "turn":
			ok = strFields(f.Value, func(k, v string) bool {
				switch k {
				case "id":
					cr.Turn.ID = v
				case "session_id":
					cr.Turn.SessionID = v
				case "input_source":
					cr.Turn.InputSource = v
				default:
					return false
				}
				return true
			})
		case "args":
			start, end := top.ValueSpan(i)
			cr.Args = json.RawMessage(line[start:end:end])
			cr.args = top.Args()
		case "workdir":
			cr.Workdir, ok = f.Value.Str()
		case "now":
			cr.Now, ok = f.Value.Str()
		default:
			ok = false
		}
		if !ok {
			return CheckRequest{}, false
		}
	}
	return cr, true
}

// strFields calls set for each member of the object v, all of which must
// be strings; it reports false if v is not such an object or set refuses
// a member.
func strFields(v tool.Value, set func(k, v string) bool) bool {
	if v.Kind() != tool.Object {
		return false
	}
	// The parser refused duplicate keys, so the order of the members
	// does not matter.
	return v.EachField(func(k string, e tool.Value) bool {
		s, ok := e.Str()
		return ok && set(k, s)
	})
}

// Complete fills the tool category, risk and tier that cr leaves empty
// from def, what the tool's own definition says (ward's catalogue or a
// configured upstream), so that a request naming only a tool is evaluated
// as that tool rather than as an undeclared (forbidden) one. Fields the
// request gives win, and the policy's declared tools still win over both
// (Snapshot.Resolve).
func (cr *CheckRequest) Complete(def tool.Ref) {
	if cr.Tool.Category == "" {
		cr.Tool.Category = string(def.Category)
	}
	if cr.Tool.Risk == "" && def.Risk != tool.RiskUnset {
		cr.Tool.Risk = def.Risk.String()
	}
	if cr.Tool.Tier == "" && def.Tier != tool.TierUnset {
		cr.Tool.Tier = def.Tier.String()
	}
}

// Evaluate decides cr against snap, with tracked unless cr seeds its own
// state, at now unless cr says when; a zero now is the evaluation's own
// clock reading (Snapshot.Evaluate), which saves a read of the clock per
// line. A malformed request is a *FieldError.
func (cr *CheckRequest) Evaluate(snap *Snapshot, tracked *Tracker, now time.Time) (Decision, error) {
	// req stays on the stack: one allocation fewer per what-if line.
	var req Request
	if err := cr.request(snap, tracked, now, &req); err != nil {
		return Decision{}, err
	}
	args := cr.args
	if args == nil {
		var err error
		if args, err = tool.ParseArgs(cr.Args); err != nil {
			return Decision{}, &FieldError{"args", strings.TrimPrefix(err.Error(), tool.ErrArgs.Error()+": ")}
		}
	}
	req.Args = args
	return snap.Evaluate(&req), nil
}

// request fills req from cr.
func (cr *CheckRequest) request(snap *Snapshot, tracked *Tracker, now time.Time, req *Request) error {
	ref := tool.Ref{Name: cr.Tool.Name, Category: tool.Category(cr.Tool.Category)}
	switch {
	case cr.Tool.Name == "":
		return &FieldError{"tool.name", "required"}
	case !tool.ValidName(cr.Tool.Name):
		return &FieldError{"tool.name", "not a valid tool name (letters, digits, _ - . :)"}
	case cr.Tool.Category != "" && !tool.ValidName(cr.Tool.Category):
		return &FieldError{"tool.category", "not a valid category"}
	}
	if cr.Tool.Risk != "" {
		r, err := tool.ParseRisk(cr.Tool.Risk)
		if err != nil {
			return &FieldError{"tool.risk", err.Error()}
		}
		ref.Risk = r
	}
	// A tool neither the policy nor the request gives a risk is evaluated
	// as forbidden (tool.Risk.Effective), like an undeclared tool at the
	// gate, not refused as malformed.
	if cr.Tool.Tier != "" {
		t, err := tool.ParseTier(cr.Tool.Tier)
		if err != nil {
			return &FieldError{"tool.tier", err.Error()}
		}
		ref.Tier = t
	}
	*req = Request{
		Tool:    ref,
		Turn:    Turn{ID: cr.Turn.ID, SessionID: cr.Turn.SessionID, Source: ParseInputSource(cr.Turn.InputSource)},
		Workdir: cr.Workdir,
		State:   tracked,
		Now:     now,
	}
	if cr.Now != "" {
		t, err := time.Parse(time.RFC3339Nano, cr.Now)
		if err != nil {
			return &FieldError{"now", "not an RFC 3339 time"}
		}
		req.Now = t
	}
	if s := cr.State; s != nil {
		if req.Now.IsZero() {
			req.Now = time.Now() // the seeded state ages from it
		}
		t, err := s.seed(snap, req)
		if err != nil {
			return err
		}
		req.State = t
		if s.Workdir != "" && req.Workdir == "" {
			req.Workdir = s.Workdir
		}
	}
	return nil
}

// seed returns a tracker holding the state s describes, aged from
// req.Now.
func (s *CheckState) seed(snap *Snapshot, req *Request) (*Tracker, error) {
	t := NewTracker()
	if s.BalanceCents != nil {
		t.SetBalance(*s.BalanceCents)
	}
	age := func(field string, sec float64) (time.Time, error) {
		if sec < 0 || sec > MaxWindow.Seconds() {
			return time.Time{}, &FieldError{field, fmt.Sprintf("must be between 0 and %.0f", MaxWindow.Seconds())}
		}
		return req.Now.Add(-time.Duration(sec * float64(time.Second))), nil
	}
	for i, sp := range s.Spend {
		field := fmt.Sprintf("state.spend[%d]", i)
		if sp.Category == "" {
			return nil, &FieldError{field + ".category", "required"}
		}
		if sp.AmountCents < 0 {
			return nil, &FieldError{field + ".amount_cents", "must not be negative"}
		}
		at, err := age(field+".age_seconds", sp.AgeSeconds)
		if err != nil {
			return nil, err
		}
		t.RecordSpend(sp.Category, sp.AmountCents, at)
	}
	total := 0
	for i, ex := range s.Executed {
		field := fmt.Sprintf("state.executed[%d]", i)
		if !tool.ValidName(ex.Tool) {
			return nil, &FieldError{field + ".tool", "required, a valid tool name"}
		}
		if ex.Count < 0 {
			return nil, &FieldError{field + ".count", "must not be negative"}
		}
		if total += ex.Count; total > MaxSeeded {
			return nil, &FieldError{field + ".count", fmt.Sprintf("more than %d seeded executions", MaxSeeded)}
		}
		at, err := age(field+".age_seconds", ex.AgeSeconds)
		if err != nil {
			return nil, err
		}
		e := Execution{Tool: snap.Resolve(tool.Ref{Name: ex.Tool}), At: at}
		switch ex.Scope {
		case "turn":
			e.TurnID, e.SessionID = req.Turn.ID, req.Turn.SessionID
		case "session":
			e.SessionID = req.Turn.SessionID
		case "", "window":
		default:
			return nil, &FieldError{field + ".scope", `must be "turn", "session" or "window"`}
		}
		for range ex.Count {
			t.Record(e)
		}
	}
	return t, nil
}
