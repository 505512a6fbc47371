package cli

import (
	"context"
	"encoding/json"
	"fmt"
)

const auditVerifyHelp = `Check the hash chain of the trust audit log (taint assignments, access
denials, review verdicts, promotions, decryption grants): every row in seq
order, its seq, its link to the previous row and its own hash. Names the
first bad row and exits 1 if the chain is broken.

The chain cannot show that its newest rows were removed.`

func auditVerify(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "audit verify", "", auditVerifyHelp)
	cfgPath := fs.String("config", "", "config file (default: ./ward.toml if present)")
	data := dataFlag(fs, "data directory of the ward whose trust log to check")
	dbPath := dbFlag(fs)
	asJSON := fs.Bool("json", false, "print one JSON object {rows, ok, first_bad, reason}")
	if st, ok := parse(fs, args); !ok {
		return st
	}
	if fs.NArg() > 0 {
		return usageErr(io, "audit verify takes no arguments (got %q)", fs.Arg(0))
	}
	st, code := openAuditStore(ctx, io, *cfgPath, *data, *dbPath)
	if st == nil {
		return code
	}
	defer st.Close()
	v, err := st.VerifyTrust(ctx)
	if err != nil {
		return fail(io, "%v", err)
	}
	if *asJSON {
		json.NewEncoder(io.Out).Encode(struct {
			Rows     int64  `json:"rows"`
			OK       bool   `json:"ok"`
			FirstBad int64  `json:"first_bad"`
			Reason   string `json:"reason"`
		}{v.Rows, v.OK, v.FirstBad, v.Reason})
	} else if v.OK {
		fmt.Fprintf(io.Out, "trust log: %d rows, chain intact\n", v.Rows)
	} else {
		fmt.Fprintf(io.Out, "trust log: row %d is bad: %s\n", v.FirstBad, v.Reason)
	}
	if !v.OK {
		return exitFail
	}
	return exitOK
}
