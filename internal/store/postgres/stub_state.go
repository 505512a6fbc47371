package postgres

import (
	"context"
	"time"

	"github.com/wardhq/ward/internal/hook"
	"github.com/wardhq/ward/internal/store"
)

func (st *Store) AddJudged(ctx context.Context, id string, n int) error {
	return errTODO
}

func (st *Store) AppendObservation(ctx context.Context, id string, w *store.ObservationWrite, durable bool) (int64, error) {
	return 0, errTODO
}

func (st *Store) DeleteSession(ctx context.Context, id string) error {
	return errTODO
}

func (st *Store) ListSessions(ctx context.Context, f store.SessionFilter) ([]store.SessionRecord, error) {
	return nil, errTODO
}

func (st *Store) Observations(ctx context.Context, id string, after int64) ([]store.Observation, error) {
	return nil, errTODO
}

func (st *Store) OpenSession(ctx context.Context, rec *store.SessionRecord, lim store.SessionLimits, mustCreate bool, now time.Time) (s store.SessionRecord, created bool, err error) {
	return store.SessionRecord{}, false, errTODO
}

func (st *Store) Session(ctx context.Context, id string) (store.SessionRecord, error) {
	return store.SessionRecord{}, errTODO
}

func (st *Store) SessionByName(ctx context.Context, principalID string, name string) (store.SessionRecord, error) {
	return store.SessionRecord{}, errTODO
}

func (st *Store) SetDirective(ctx context.Context, id string, directive string, trusted bool, at time.Time) error {
	return errTODO
}

func (st *Store) SetSessionLevel(ctx context.Context, id string, c store.LevelChange) error {
	return errTODO
}

func (st *Store) Tainted(ctx context.Context, principalID string) (bool, error) {
	return false, errTODO
}

func (st *Store) TouchSession(ctx context.Context, id string, at time.Time) error {
	return errTODO
}

func (st *Store) UnderReview(ctx context.Context, principalID string) (bool, error) {
	return false, errTODO
}

func (st *Store) DecideHeldCall(ctx context.Context, id string, status store.HeldStatus, by string, note string, at time.Time, rec *store.ActionRecord) error {
	return errTODO
}

func (st *Store) HeldCall(ctx context.Context, id string) (store.HeldCall, error) {
	return store.HeldCall{}, errTODO
}

func (st *Store) HeldCalls(ctx context.Context, f store.HeldFilter) ([]store.HeldCall, error) {
	return nil, errTODO
}

func (st *Store) HoldCall(ctx context.Context, c *store.HeldCall, lim store.HoldLimits, rec *store.ActionRecord) (existing string, err error) {
	return "", errTODO
}

func (st *Store) SetHeldOutcome(ctx context.Context, id string, outcome []byte, rec *store.ActionRecord) error {
	return errTODO
}

func (st *Store) CreatePrincipal(ctx context.Context, p *store.PrincipalRecord) error {
	return errTODO
}

func (st *Store) ListPrincipals(ctx context.Context) ([]store.PrincipalRecord, error) {
	return nil, errTODO
}

func (st *Store) Principal(ctx context.Context, id string) (store.PrincipalRecord, error) {
	return store.PrincipalRecord{}, errTODO
}

func (st *Store) PrincipalByName(ctx context.Context, name string) (store.PrincipalRecord, error) {
	return store.PrincipalRecord{}, errTODO
}

func (st *Store) PrincipalByToken(ctx context.Context, h [32]byte) (store.PrincipalRecord, error) {
	return store.PrincipalRecord{}, errTODO
}

func (st *Store) RevokePrincipal(ctx context.Context, id string, at time.Time) error {
	return errTODO
}

func (st *Store) RotatePrincipal(ctx context.Context, id string, h [32]byte, at time.Time) error {
	return errTODO
}

func (st *Store) TouchPrincipal(ctx context.Context, id string, at time.Time) error {
	return errTODO
}

func (st *Store) AddWithheldWrap(ctx context.Context, key string, reviewer string, wrap []byte) error {
	return errTODO
}

func (st *Store) PromoteWithheld(ctx context.Context, key string, by string, at time.Time, plain []byte) error {
	return errTODO
}

func (st *Store) PutWithheld(ctx context.Context, w *store.WithheldOutput) error {
	return errTODO
}

func (st *Store) RejectWithheld(ctx context.Context, key string, by string, at time.Time) error {
	return errTODO
}

func (st *Store) Withheld(ctx context.Context, key string) (*store.WithheldOutput, error) {
	return nil, errTODO
}

func (st *Store) WithheldBySession(ctx context.Context, sessionID string, limit int) ([]store.WithheldOutput, error) {
	return nil, errTODO
}

func (st *Store) Begin(ctx context.Context, e hook.WindowSpend, q hook.WindowQuery, fits func(hook.WindowTotals) error) error {
	return errTODO
}

func (st *Store) Finish(ctx context.Context, key string, executed bool, cents int64) error {
	return errTODO
}

func (st *Store) Release(ctx context.Context, key string) error {
	return errTODO
}

func (st *Store) Reserve(ctx context.Context, h hook.WindowHold, q hook.WindowQuery, fits func(hook.WindowTotals) error) error {
	return errTODO
}

func (st *Store) Totals(ctx context.Context, q hook.WindowQuery) (hook.WindowTotals, error) {
	return hook.WindowTotals{}, errTODO
}
