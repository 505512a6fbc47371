package postgres

import (
	"context"
	"time"

	"github.com/wardhq/ward/internal/store"
)

// start starts the store's background goroutines (the audit writer).
func (s *Store) start() {}

func (st *Store) AppendDecision(ctx context.Context, rec *store.DecisionRecord, durable bool) error {
	return errTODO
}

func (st *Store) CountDecisions(ctx context.Context, f store.DecisionFilter) (int64, error) {
	return 0, errTODO
}

func (st *Store) DecisionReport(ctx context.Context, r store.Report, f store.DecisionFilter) ([]store.ReportRow, error) {
	return nil, errTODO
}

func (st *Store) QueryDecisions(ctx context.Context, f store.DecisionFilter) ([]store.DecisionRecord, error) {
	return nil, errTODO
}

func (st *Store) AppendExecution(ctx context.Context, rec *store.ExecutionRecord) error {
	return errTODO
}

func (st *Store) Balance(ctx context.Context) (cents int64, at time.Time, ok bool, err error) {
	return 0, time.Time{}, false, errTODO
}

func (st *Store) Executions(ctx context.Context, since time.Time) ([]store.ExecutionRecord, error) {
	return nil, errTODO
}

func (st *Store) SetBalance(ctx context.Context, cents int64, at time.Time) error {
	return errTODO
}

func (st *Store) Policy(ctx context.Context, hash string) ([]byte, error) {
	return nil, errTODO
}

func (st *Store) RecordPolicy(ctx context.Context, hash string, source []byte) error {
	return errTODO
}

func (st *Store) CancelPermit(ctx context.Context, id string, by string, now time.Time) error {
	return errTODO
}

func (st *Store) CancelPermitRecorded(ctx context.Context, id string, by string, now time.Time, rec *store.ActionRecord) error {
	return errTODO
}

func (st *Store) ConsumePermit(ctx context.Context, id string, c store.PermitCheck) (store.Permit, error) {
	return store.Permit{}, errTODO
}

func (st *Store) CreatePermit(ctx context.Context, p *store.Permit) error {
	return errTODO
}

func (st *Store) PendingPermits(ctx context.Context, now time.Time, limit int) ([]store.Permit, error) {
	return nil, errTODO
}

func (st *Store) Permit(ctx context.Context, id string) (store.Permit, error) {
	return store.Permit{}, errTODO
}

func (st *Store) JournalTx(ctx context.Context, t *store.SentTx) error {
	return errTODO
}

func (st *Store) OpenTxs(ctx context.Context, chainID uint64, from string) (open []store.SentTx, next uint64, err error) {
	return nil, 0, errTODO
}

func (st *Store) SettleTx(ctx context.Context, chainID uint64, hash string, state store.SentState, block uint64, at time.Time) error {
	return errTODO
}

func (st *Store) AppendTrust(ctx context.Context, rec *store.TrustRecord) error {
	return errTODO
}

func (st *Store) TrustRecords(ctx context.Context, fromSeq int64, limit int) ([]store.TrustRecord, error) {
	return nil, errTODO
}

func (st *Store) VerifyTrust(ctx context.Context) (store.TrustVerify, error) {
	return store.TrustVerify{}, errTODO
}

func (st *Store) GateControl(ctx context.Context) (store.GateControl, error) {
	return store.GateControl{}, errTODO
}

func (st *Store) SetHalt(ctx context.Context, halted bool, reason string, by string, at time.Time, rec *store.ActionRecord) error {
	return errTODO
}

func (st *Store) SetPhase(ctx context.Context, phase string, by string, at time.Time, rec *store.ActionRecord) error {
	return errTODO
}
