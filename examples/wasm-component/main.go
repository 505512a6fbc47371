//go:build wasip1

// Command wasm-component is an example Stage 3 skill component for ward,
// written against the ward_v1 host interface with no SDK (docs/sandbox.md,
// "WASM skill components"). One module serves both kinds; register it once
// per kind, under two names.
//
// Its arguments are {"kind": "condition" | "sizing", "args": {...},
// "market": {"price", "ret", "chg", "vol", "rsi", "gas", "liquidity",
// "position", "tick"}}, the market state a CEL condition sees.
//
//   - As a condition it holds when the market is oversold and calm:
//     rsi < args.rsi_below (default 30) and vol <= args.max_vol (default
//     no limit). It hands over {"result": true} or {"result": false}.
//   - As a sizing it targets a volatility: the size is
//     args.target_vol / vol, capped at args.max (default 1), or args.max
//     when vol is 0. It hands over {"result": SIZE}, SIZE in [0, 1].
//
// Build (a reactor: ward calls ward_run after _initialize):
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -o wasm-component.wasm .
package main

import (
	"encoding/json"
	"unsafe"
)

//go:wasmimport ward_v1 args_get
func argsGet(buf unsafe.Pointer, capacity uint32) int32

//go:wasmimport ward_v1 result_set
func resultSet(buf unsafe.Pointer, n uint32) int32

func ptr(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return nil
	}
	return unsafe.Pointer(&b[0])
}

type input struct {
	Kind string `json:"kind"`
	Args struct {
		RSIBelow  *float64 `json:"rsi_below"`
		MaxVol    *float64 `json:"max_vol"`
		TargetVol float64  `json:"target_vol"`
		Max       *float64 `json:"max"`
	} `json:"args"`
	Market struct {
		RSI float64 `json:"rsi"`
		Vol float64 `json:"vol"`
	} `json:"market"`
}

//go:wasmexport ward_run
func run() int32 {
	n := argsGet(nil, 0)
	if n <= 0 {
		return 1
	}
	buf := make([]byte, n)
	argsGet(ptr(buf), uint32(n))
	var in input
	if err := json.Unmarshal(buf, &in); err != nil {
		return 2
	}
	var result any
	switch in.Kind {
	case "condition":
		below := 30.0
		if in.Args.RSIBelow != nil {
			below = *in.Args.RSIBelow
		}
		calm := in.Args.MaxVol == nil || in.Market.Vol <= *in.Args.MaxVol
		result = in.Market.RSI < below && calm
	case "sizing":
		most := 1.0
		if in.Args.Max != nil {
			most = min(max(*in.Args.Max, 0), 1)
		}
		size := most
		if in.Market.Vol > 0 {
			size = min(most, max(in.Args.TargetVol, 0)/in.Market.Vol)
		}
		result = size
	default:
		return 3
	}
	out, err := json.Marshal(map[string]any{"result": result})
	if err != nil {
		return 4
	}
	if resultSet(ptr(out), uint32(len(out))) != 0 {
		return 5
	}
	return 0
}

func main() {}
