package hook

import (
	"errors"
	"fmt"
)

// Config configures every hook of the default chain.
type Config struct {
	Phase         PhaseGateConfig
	Allowlist     AllowlistConfig
	Spending      SpendingConfig
	Rate          RateConfig
	Simulation    SimulationConfig
	Hallucination HallucinationConfig
	Filter        FilterConfig
}

// Set holds one of each hook. The gate keeps it to reach the stateful
// hooks (Spending and Rate: Reserve, Settle, Release, Record) and the
// result filter.
type Set struct {
	Phase         *PhaseGate
	Allowlist     *Allowlist
	Spending      *SpendingLimiter
	Rate          *RateLimiter
	Simulation    *Simulation
	Hallucination *Hallucination
	Filter        *ResultFilter
}

// NewSet validates cfg and builds each hook.
func NewSet(cfg Config) (*Set, error) {
	var s Set
	var err error
	if s.Phase, err = NewPhaseGate(cfg.Phase); err != nil {
		return nil, err
	}
	if s.Allowlist, err = NewAllowlist(cfg.Allowlist); err != nil {
		return nil, err
	}
	if s.Spending, err = NewSpendingLimiter(cfg.Spending); err != nil {
		return nil, err
	}
	if s.Rate, err = NewRateLimiter(cfg.Rate); err != nil {
		return nil, err
	}
	if s.Simulation, err = NewSimulation(cfg.Simulation); err != nil {
		return nil, err
	}
	if s.Hallucination, err = NewHallucination(cfg.Hallucination); err != nil {
		return nil, err
	}
	if s.Filter, err = NewResultFilter(cfg.Filter); err != nil {
		return nil, err
	}
	return &s, nil
}

// DefaultChain returns the set's hooks in the seed's order: phase gate,
// allowlist, spending limiter, rate limiter, simulation, hallucination
// detector, result filter. Every hook must be present.
func DefaultChain(s *Set) (Chain, error) {
	if s == nil {
		return nil, errors.New("hook: nil set")
	}
	ch := Chain{s.Phase, s.Allowlist, s.Spending, s.Rate, s.Simulation, s.Hallucination, s.Filter}
	names := []string{"phase gate", "allowlist", "spending limiter", "rate limiter", "simulation", "hallucination", "result filter"}
	for i, present := range []bool{s.Phase != nil, s.Allowlist != nil, s.Spending != nil, s.Rate != nil,
		s.Simulation != nil, s.Hallucination != nil, s.Filter != nil} {
		if !present {
			return nil, fmt.Errorf("hook: the set has no %s", names[i])
		}
	}
	return ch, nil
}
