package skill

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
)

func TestReadCSV(t *testing.T) {
	f, err := os.Open("testdata/eth_hourly_sample.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc, err := ReadCSV(f, "eth_hourly_sample")
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Ticks) != 48 || sc.Ticks[0].Price != 3200 || sc.Regime != RegimeRecorded {
		t.Fatalf("scenario = %d ticks, first %+v", len(sc.Ticks), sc.Ticks[0])
	}
	frag, _ := Parse("sell everything when price drops 1 %")
	ev, err := Evaluate(context.Background(), &Request{Fragment: frag, Market: Market{Scenarios: 1}, Recorded: []Scenario{sc}})
	if err != nil {
		t.Fatal(err)
	}
	if ev.Scenarios != 2 || ev.Ticks != 48 {
		t.Errorf("evaluated %d scenarios of up to %d ticks, want 2 and 48", ev.Scenarios, ev.Ticks)
	}
	for name, bad := range map[string]string{
		"columns":  "timestamp,price,volume\n1,2,3\n",
		"nan":      "timestamp,price,volume,gas\n1,NaN,1,1\n2,1,1,1\n",
		"zero":     "timestamp,price,volume,gas\n1,0,1,1\n2,1,1,1\n",
		"negative": "1,1,-1,1\n2,1,1,1\n",
		"one row":  "timestamp,price,volume,gas\n1,1,1,1\n",
	} {
		if _, err := ReadCSV(strings.NewReader(bad), name); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"when rsi below 30, buy 10 %", "sell everything when price drops 1 %",
		"if cel: gas < 1.0, wait", "whenever volatility exceeds 4 %, remove liquidity and hedge 20 %", "hold",
		`when component: oversold_calm {"rsi_below": 20} then buy 10 %`, "if component: ../x, sell"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		fr, err := Parse(s)
		if err != nil {
			return
		}
		for _, a := range fr.Actions {
			if a.Size < 0 || a.Size > 1 {
				t.Fatalf("size %v out of range", a.Size)
			}
		}
		for _, c := range fr.Conditions {
			if c.Component != "" && (!ValidComponentName(c.Component) || (len(c.Args) > 0 && !json.Valid(c.Args)) || len(c.Args) > MaxComponentArgs) {
				t.Fatalf("component reference %q with arguments %q", c.Component, c.Args)
			}
		}
		if p, err := NewLibrary().Compose(fr); err == nil {
			if _, err := Evaluate(context.Background(), &Request{Fragment: p.Fragment, Market: Market{Scenarios: 1, Ticks: 10}}); err != nil && !errors.Is(err, ErrCostLimit) {
				t.Fatalf("evaluate: %v", err)
			}
		}
	})
}
