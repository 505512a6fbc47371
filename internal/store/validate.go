package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/id"
)

// CheckRecord refuses a record a backend is asked to write when it is nil
// or fails its own Validate, before anything is written; op names the
// write ("sqlite: hold owner tx") and starts the error. The chain-side
// records (OwnerTx, SafeTx, SentTx) are checked this way.
func CheckRecord[R interface {
	comparable
	Validate() error
}](op string, rec R) error {
	var none R
	if rec == none {
		return errors.New(op + ": nil record")
	}
	if err := rec.Validate(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	return nil
}

// ErrInvalidRecord is wrapped by every backend's refusal of a record that
// breaks the contract before anything is written (a bad id, a zero time,
// an unknown enum); nothing is written. The checks live here, once, so
// that every backend refuses exactly the same records.
var ErrInvalidRecord = errors.New("invalid record")

// Invalid returns an error wrapping ErrInvalidRecord.
func Invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidRecord, fmt.Sprintf(format, args...))
}

// Times a record may carry: what Unix nanoseconds in an int64 hold.
var (
	MinTime = time.Unix(0, math.MinInt64).UTC()
	MaxTime = time.Unix(0, math.MaxInt64).UTC()
)

// Nanos returns t as Unix nanoseconds, refusing a zero time and one outside
// MinTime..MaxTime (what names the field in the error).
func Nanos(what string, t time.Time) (int64, error) {
	if t.IsZero() {
		return 0, Invalid("zero %s", what)
	}
	if t.Before(MinTime) || t.After(MaxTime) {
		return 0, Invalid("%s %v outside years 1678-2262", what, t)
	}
	return t.UnixNano(), nil
}

// Validate checks an action record before it is written.
func (r *ActionRecord) Validate() error {
	if !id.ValidAny(r.ID) {
		return Invalid("id %q is not an id ward makes", r.ID)
	}
	if _, err := Nanos("time", r.Time); err != nil {
		return err
	}
	switch {
	case !r.Kind.Valid():
		return Invalid("kind %v is not an action kind", r.Kind)
	case r.Status > StatusFailed:
		return Invalid("status %v is not an action status", r.Status)
	case r.GasUsed > math.MaxInt64:
		return Invalid("gas used %d above %d", r.GasUsed, int64(math.MaxInt64))
	case strings.Trim(r.GasCostWei, "0123456789") != "":
		return Invalid("gas cost %q is not a decimal number of wei", r.GasCostWei)
	case len(r.Detail) > 0 && !json.Valid(r.Detail):
		return Invalid("detail is not JSON")
	}
	return nil
}

// risks are the risk levels a decision record may carry, in the order
// backends code them (1 to 4).
var risks = [...]string{"safe", "caution", "dangerous", "forbidden"}

// RiskCode returns the risk's position in safe, caution, dangerous,
// forbidden from 1, or 0 for any other string.
func RiskCode(risk string) int {
	for i, r := range risks {
		if r == risk {
			return i + 1
		}
	}
	return 0
}

// Validate checks a decision record before it is written: an id that is a
// ULID made at or after the record's time (so that id order is time
// order), a non-zero time within MinTime..MaxTime, a known risk, decision
// and origin, rule lists that are empty or JSON arrays, and a latency that
// is not negative.
func (r *DecisionRecord) Validate() error {
	if !id.Valid(r.ID) {
		return Invalid("id %q is not a ULID", r.ID)
	}
	if _, err := Nanos("time", r.Time); err != nil {
		return err
	}
	if id.Before(r.ID, r.Time) {
		return Invalid("id %s was made before the record's time %s", r.ID, r.Time.UTC().Format(time.RFC3339Nano))
	}
	switch {
	case RiskCode(r.Risk) == 0:
		return Invalid("risk %q is not safe, caution, dangerous or forbidden", r.Risk)
	case !r.Decision.Valid():
		return Invalid("decision %v is not allow, deny or quarantine", r.Decision)
	case !r.Origin.Valid():
		return Invalid("origin %v is not gate or check", r.Origin)
	case r.Latency < 0:
		return Invalid("negative latency %v", r.Latency)
	}
	if _, err := RuleList("rules evaluated", r.RulesEvaluated); err != nil {
		return err
	}
	_, err := RuleList("rules triggered", r.RulesTriggered)
	return err
}

// RuleList returns s if it is a JSON array, "[]" if it is empty, and an
// error wrapping ErrInvalidRecord otherwise (what names the field).
func RuleList(what, s string) (string, error) {
	if s == "" {
		return "[]", nil
	}
	if _, ok := validLists.m.Load(s); ok {
		return s, nil
	}
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
		i++
	}
	if i == len(s) || s[i] != '[' || !json.Valid([]byte(s)) {
		return "", Invalid("%s: not a JSON array", what)
	}
	if validLists.n.Load() < maxValidLists {
		if _, loaded := validLists.m.LoadOrStore(s, struct{}{}); !loaded {
			validLists.n.Add(1)
		}
	}
	return s, nil
}

// StoredRuleList is the text stored for a rule list that Validate
// accepted: "[]" for an empty one, else the list as given. It is
// RuleList without the check, which Validate has made.
func StoredRuleList(s string) string {
	if s == "" {
		return "[]"
	}
	return s
}

// validLists remembers rule lists that RuleList found valid: a policy
// produces few distinct lists, and checking one costs far more than
// finding it here. Callers choose the lists, so the set is bounded.
var validLists struct {
	m sync.Map // string -> struct{}
	n atomic.Int32
}

const maxValidLists = 4096

// Validate checks an execution record before it is written: a ULID id, a
// non-zero time within MinTime..MaxTime, a tool and a spend that is not
// negative.
func (r *ExecutionRecord) Validate() error {
	if !id.Valid(r.ID) {
		return Invalid("id %q is not a ULID", r.ID)
	}
	if _, err := Nanos("time", r.Time); err != nil {
		return err
	}
	switch {
	case r.Tool == "":
		return Invalid("empty tool")
	case r.SpendCents < 0:
		return Invalid("negative spend %d", r.SpendCents)
	}
	return nil
}

// riskTiers are the tiers a permit may carry.
var riskTiers = []string{"routine", "standard", "elevated", "high", "critical"}

// Validate checks a new permit (see Permits.CreatePermit): pending and not
// closed, an id ward makes, CreatedAt and ExpiresAt (after CreatedAt), a
// NotBefore (if set) before ExpiresAt, a tool, an args hash and a policy
// hash, a risk tier (if set) of routine, standard, elevated, high or
// critical, a value that is not negative, an ExpiryTick of at most
// math.MaxInt64 and Args that are empty or JSON.
func (p *Permit) Validate() error {
	if !id.ValidAny(p.ID) {
		return Invalid("id %q is not an id ward makes", p.ID)
	}
	if p.Status != PermitPending {
		return Invalid("status %q: a new permit is pending", p.Status)
	}
	if !p.ClosedAt.IsZero() || p.ClosedBy != "" {
		return Invalid("a new permit is not closed")
	}
	if _, err := Nanos("created at", p.CreatedAt); err != nil {
		return err
	}
	if _, err := Nanos("expires at", p.ExpiresAt); err != nil {
		return err
	}
	if !p.ExpiresAt.After(p.CreatedAt) {
		return Invalid("expires at %v, not after its creation", p.ExpiresAt)
	}
	if !p.NotBefore.IsZero() {
		if _, err := Nanos("not before", p.NotBefore); err != nil {
			return err
		}
		if !p.NotBefore.Before(p.ExpiresAt) {
			return Invalid("not before %v, not before it expires", p.NotBefore)
		}
	}
	switch {
	case p.ExpiryTick > math.MaxInt64:
		return Invalid("expiry tick %d above %d", p.ExpiryTick, int64(math.MaxInt64))
	case p.Tool == "":
		return Invalid("empty tool")
	case p.ArgsHash == "":
		return Invalid("empty args hash")
	case p.PolicyHash == "":
		return Invalid("empty policy hash")
	case p.RiskTier != "" && !slices.Contains(riskTiers, p.RiskTier):
		return Invalid("risk tier %q is not one of %s", p.RiskTier, strings.Join(riskTiers, ", "))
	case p.ValueCents < 0:
		return Invalid("negative value %d", p.ValueCents)
	case len(p.Args) > 0 && !json.Valid(p.Args):
		return Invalid("args are not JSON")
	}
	return nil
}

// PermitStatusErr is the refusal for a permit in status s, which is not
// pending: it wraps ErrPermitNotPending and ErrPermitConsumed or
// ErrPermitCancelled.
func PermitStatusErr(s PermitStatus) error {
	switch s {
	case PermitConsumed:
		return fmt.Errorf("%w: %w", ErrPermitNotPending, ErrPermitConsumed)
	case PermitCancelled:
		return fmt.Errorf("%w: %w", ErrPermitNotPending, ErrPermitCancelled)
	}
	return fmt.Errorf("%w: status %q", ErrPermitNotPending, s)
}

// Refusal says why consuming p under c fails, checking in the order
// Permits.ConsumePermit documents: status, tool or args hash, expiry by
// time or tick, policy, phase, announce delay. A c.Tick above
// math.MaxInt64 counts as past every expiry tick. nil means every
// condition holds. c.SessionID is not checked: another session's permit
// is the caller's ErrNotFound.
func (p *Permit) Refusal(c PermitCheck) error {
	now := c.Now.UnixNano()
	tick := min(c.Tick, math.MaxInt64)
	switch {
	case p.Status != PermitPending:
		return PermitStatusErr(p.Status)
	case p.Tool != c.Tool:
		return fmt.Errorf("%w: tool differs", ErrPermitMismatch)
	case p.ArgsHash != c.ArgsHash:
		return fmt.Errorf("%w: args hash differs", ErrPermitMismatch)
	case p.ExpiresAt.UnixNano() <= now:
		return fmt.Errorf("%w: at %s", ErrPermitExpired, p.ExpiresAt.Format(time.RFC3339Nano))
	case p.ExpiryTick != 0 && tick >= p.ExpiryTick:
		return fmt.Errorf("%w: at tick %d", ErrPermitExpired, p.ExpiryTick)
	case p.PolicyHash != c.PolicyHash:
		return ErrPolicyChanged
	case p.Phase != c.Phase:
		return fmt.Errorf("%w: previewed in phase %q", ErrPhaseChanged, p.Phase)
	case !p.NotBefore.IsZero() && p.NotBefore.UnixNano() > now:
		return fmt.Errorf("%w: until %s", ErrPermitEarly, p.NotBefore.Format(time.RFC3339Nano))
	}
	return nil
}

// hexOf reports whether s is 0x and n lower-case hex bytes.
func hexOf(s string, n int) bool {
	return len(s) == 2+2*n && strings.HasPrefix(s, "0x") && strings.Trim(s[2:], "0123456789abcdef") == ""
}

// Validate checks a record before JournalTx stores it: a chain, a
// lower-case hex sender and hash, a nonce of at most math.MaxInt64, signed
// bytes, a permit, an index within its plan, in flight and unsettled, and
// a creation time.
func (t *SentTx) Validate() error {
	switch {
	case t.ChainID == 0 || t.ChainID > math.MaxInt64:
		return Invalid("chain id %d", t.ChainID)
	case !hexOf(t.From, 20):
		return Invalid("sender %q is not a lower-case hex address", t.From)
	case !hexOf(t.Hash, 32):
		return Invalid("hash %q is not a lower-case hex hash", t.Hash)
	case t.Nonce > math.MaxInt64:
		return Invalid("nonce %d above %d", t.Nonce, int64(math.MaxInt64))
	case len(t.Raw) == 0:
		return Invalid("no signed bytes")
	case t.PermitID == "":
		return Invalid("no permit")
	case t.Index < 0 || t.PlanLen <= t.Index:
		return Invalid("index %d of a plan of %d", t.Index, t.PlanLen)
	case t.State != SentInFlight || t.Block != 0 || !t.Settled.IsZero():
		return Invalid("a journaled transaction is in flight and unsettled")
	}
	_, err := Nanos("created", t.Created)
	return err
}

// CheckSettle checks the arguments of SentTxs.SettleTx: a final state, a
// block exactly for mined and reverted, a block and chain of at most
// math.MaxInt64, and a time.
func CheckSettle(chainID uint64, state SentState, block uint64, at time.Time) error {
	switch {
	case !state.Final():
		return Invalid("state %v is not final", state)
	case (state == SentMined || state == SentReverted) != (block != 0):
		return Invalid("state %v with block %d", state, block)
	case block > math.MaxInt64 || chainID > math.MaxInt64:
		return Invalid("block %d, chain %d", block, chainID)
	}
	_, err := Nanos("settled", at)
	return err
}

// CheckPhase refuses a phase that is not one of the five names.
func CheckPhase(phase string) error {
	if _, err := hook.ParsePhase(phase); err != nil {
		return Invalid("%q is not a phase", phase)
	}
	return nil
}

// CheckSpendingOverride checks SetSpendingOverride's argument: nil (a
// clear), or non-negative limits, who set them and a time.
func CheckSpendingOverride(o *SpendingOverride) error {
	if o == nil {
		return nil
	}
	if o.PerTickCents < 0 || o.PerSessionCents < 0 || o.DailyCents < 0 {
		return Invalid("a spending limit is negative")
	}
	if o.By == "" {
		return Invalid("a spending override needs who set it")
	}
	_, err := Nanos("at", o.At)
	return err
}

// MaxAllowlistChange bounds the entries of one ChangeAllowlist.
const MaxAllowlistChange = 1000

// CheckAllowlistEntries checks ChangeAllowlist's entries: a known kind, a
// canonical value (lower-case hex: 0x and 40 digits for an address, 8
// for a selector), who set it and a time; each kind and value once; at
// most MaxAllowlistChange. A reset with no entries is a change; no reset
// and no entries is not.
func CheckAllowlistEntries(entries []AllowlistEntry, reset bool) error {
	if len(entries) == 0 && !reset {
		return Invalid("an allowlist change with no entries and no reset")
	}
	if len(entries) > MaxAllowlistChange {
		return Invalid("%d allowlist entries in one change, at most %d", len(entries), MaxAllowlistChange)
	}
	seen := map[[2]string]bool{}
	for i, e := range entries {
		digits := 40
		switch e.Kind {
		case AllowToken, AllowContract:
		case AllowSelector:
			digits = 8
		default:
			return Invalid("allowlist entry %d: unknown kind %q", i, e.Kind)
		}
		if !canonicalHex(e.Value, digits) {
			return Invalid("allowlist entry %d: %s %q is not 0x and %d lower-case hex digits", i, e.Kind, e.Value, digits)
		}
		k := [2]string{string(e.Kind), e.Value}
		if seen[k] {
			return Invalid("allowlist entry %d: %s %s given twice", i, e.Kind, e.Value)
		}
		seen[k] = true
		if e.By == "" {
			return Invalid("allowlist entry %d: no setter", i)
		}
		if _, err := Nanos("at", e.At); err != nil {
			return err
		}
	}
	return nil
}

// canonicalHex reports whether s is 0x and n lower-case hex digits.
func canonicalHex(s string, n int) bool {
	if len(s) != 2+n || s[:2] != "0x" {
		return false
	}
	for _, c := range s[2:] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// CheckHalt checks SetHalt's arguments: a time, and a reason for a halt.
func CheckHalt(halted bool, reason string, at time.Time) error {
	if _, err := Nanos("at", at); err != nil {
		return err
	}
	if halted && reason == "" {
		return Invalid("a halt needs its reason")
	}
	return nil
}
