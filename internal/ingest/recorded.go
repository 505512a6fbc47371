package ingest

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/adopt"
	"github.com/wardhq/ward/internal/rollback"
	"github.com/wardhq/ward/internal/store"
)

// ErrNoActionLog: the pipeline has no action log to read the tagged
// decisions from.
var ErrNoActionLog = errors.New("no action log is configured")

// RecordedRollback is the rollback input for source from what ward
// recorded: the daily market samples (RecordSample; RollbackSeries turns
// them into the agent's returns and the factors) and the writes the gate
// executed, tagged with the external entries that influenced them (the
// "influences" of each executed tool_call record's detail), each on the
// day of the series it fell in. firstUse, if nil, is the first day a
// write was influenced by the source (the last day but one when none
// was: then source attribution clears it). An error wraps ErrShortSeries
// when fewer than four consecutive days were recorded.
func (p *Pipeline) RecordedRollback(ctx context.Context, source string, firstUse *int) (rollback.Input, error) {
	samples, err := p.Samples(ctx)
	if err != nil {
		return rollback.Input{}, err
	}
	returns, factors, days, err := RollbackSeries(samples)
	if err != nil {
		return rollback.Input{}, err
	}
	if p.cfg.Actions == nil {
		return rollback.Input{}, fmt.Errorf("ingest: recorded rollback: %w", ErrNoActionLog)
	}
	n := len(returns)
	if n > MaxRollbackDays {
		returns, days = returns[n-MaxRollbackDays:], days[n-MaxRollbackDays:]
		for i := range factors {
			factors[i].Values = factors[i].Values[n-MaxRollbackDays:]
		}
		n = MaxRollbackDays
	}
	start := days[0]
	recs, err := p.cfg.Actions.Actions(ctx, store.ActionFilter{Kind: store.ActionToolCall, Since: start, Until: days[n-1].Add(24 * time.Hour)})
	if err != nil {
		return rollback.Input{}, fmt.Errorf("ingest: recorded rollback: decisions: %w", err)
	}
	in := rollback.Input{Returns: returns, Factors: factors, Source: source, FirstUse: -1}
	for _, r := range recs {
		if r.Status != store.StatusExecuted || len(r.Detail) == 0 {
			continue
		}
		var d struct {
			Influences []adopt.Influence `json:"influences"`
		}
		if json.Unmarshal(r.Detail, &d) != nil || len(d.Influences) == 0 {
			continue
		}
		day := int(r.Time.Sub(start) / (24 * time.Hour))
		if day < 0 || day >= n {
			continue
		}
		rec := rollback.Record{Day: day, ID: cmp.Or(r.PermitID, r.ID)}
		for _, u := range d.Influences {
			rec.Used = append(rec.Used, rollback.Influence{EntryID: u.EntryID, Source: u.Agent})
			if in.FirstUse < 0 && strings.EqualFold(u.Agent, source) {
				in.FirstUse = day
			}
		}
		in.Decisions = append(in.Decisions, rec)
	}
	if len(in.Decisions) > MaxRollbackDecisions {
		in.Decisions = in.Decisions[len(in.Decisions)-MaxRollbackDecisions:]
	}
	switch {
	case firstUse != nil:
		in.FirstUse = *firstUse
	case in.FirstUse < 0:
		in.FirstUse = n - 2
	}
	in.FirstUse = min(max(in.FirstUse, 0), n-2)
	return in, nil
}
