package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"text/tabwriter"
	"time"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/daemon"
	"github.com/wardhq/ward/internal/store"
)

// openTokens opens the store of a token command: the shared database
// when the configuration at cfgPath (default ./ward.toml, if present) has
// a [store] url, else the data directory's; create makes the directory,
// the others need its database to exist.
func openTokens(ctx context.Context, cfgPath, data string, create bool) (store.Store, error) {
	f, err := loadConfig(cfgPath)
	if err != nil {
		return nil, err
	}
	db := storeOf(f, data, "")
	switch {
	case daemon.IsURL(db):
	case create:
		if err := os.MkdirAll(data, 0o700); err != nil {
			return nil, err
		}
	case !fileExists(db):
		return nil, fmt.Errorf("no ward database in %s (see --data)", data)
	}
	return daemon.OpenStore(ctx, db, "")
}

func tokenCreate(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "token create", "", `Create a bearer token bound to a role and print it on its own line. Only
its hash is stored (in the data directory's database); the token cannot be
shown again. owner: approves quarantined calls, lifts halts, changes the
phase, manages tokens, signs privileged approvals; agent: calls tools;
peer: another agent, with peer authority. The name is unique among tokens
that are not revoked (default: the role and part of the id); with --ttl the
token expires and is refused from then on. With --json the token and its
principal are printed as one JSON object instead.`)
	role := fs.String("role", "", "owner, agent or peer (required)")
	data := dataFlag(fs, "data directory (created if missing)")
	cfgPath := fs.String("config", "", "ward.toml whose [store] url names a shared database (default: ./ward.toml if present)")
	name := fs.String("name", "", "a unique name for the token (shown in audits and by 'ward token list')")
	ttl := fs.Duration("ttl", 0, "lifetime, e.g. 720h (default: never expires)")
	asJSON := fs.Bool("json", false, "print {\"token\":...,\"principal\":{...}} as JSON")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageErr(io, "token create: unexpected argument %q", fs.Arg(0))
	}
	r, err := auth.ParseRole(*role)
	if err != nil {
		return usageErr(io, "token create: --role: %v", err)
	}
	if *name != "" {
		if err := auth.CheckName(*name); err != nil {
			return usageErr(io, "token create: --name: %v", err)
		}
	}
	if *ttl < 0 || *ttl > auth.MaxTTL {
		return usageErr(io, "token create: --ttl: %v", auth.ErrBadTTL)
	}
	st, err := openTokens(ctx, *cfgPath, *data, true)
	if err != nil {
		return fail(io, "%v", err)
	}
	tok, p, err := auth.Create(ctx, st, auth.Spec{Role: r, Name: *name, TTL: *ttl}, time.Now())
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, store.ErrNameTaken) {
		return fail(io, "token create: a token named %q exists (revoke it, or choose another --name)", *name)
	}
	if err != nil {
		return fail(io, "%v", err)
	}
	if *asJSON {
		return printJSON(io, map[string]any{"token": tok, "principal": p})
	}
	fmt.Fprintln(io.Out, tok)
	exp := "never expires"
	if !p.Expires.IsZero() {
		exp = "expires " + p.Expires.Format(time.RFC3339)
	}
	fmt.Fprintf(io.Err, "created %s token %s named %q, %s (store it now: it cannot be shown again)\n", p.Role, p.ID, p.Name, exp)
	return exitOK
}

func printJSON(io IO, v any) int {
	enc := json.NewEncoder(io.Out)
	if err := enc.Encode(v); err != nil {
		return fail(io, "%v", err)
	}
	return exitOK
}

func tokenList(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "token list", "", `List every token's principal, revoked ones included: id, name, role,
created, expires, revoked, last used. The secret is never shown (ward keeps
only its hash). With --json, one JSON object per token per line.`)
	data := dataFlag(fs, "data directory")
	cfgPath := fs.String("config", "", "ward.toml whose [store] url names a shared database (default: ./ward.toml if present)")
	asJSON := fs.Bool("json", false, "one JSON object per token per line")
	if code, ok := parse(fs, args); !ok {
		return code
	}
	if fs.NArg() > 0 {
		return usageErr(io, "token list: unexpected argument %q", fs.Arg(0))
	}
	st, err := openTokens(ctx, *cfgPath, *data, false)
	if err != nil {
		return fail(io, "%v", err)
	}
	list, err := auth.List(ctx, st)
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail(io, "%v", err)
	}
	if *asJSON {
		enc := json.NewEncoder(io.Out)
		for _, i := range list {
			if err := enc.Encode(i); err != nil {
				return fail(io, "%v", err)
			}
		}
		return exitOK
	}
	w := tabwriter.NewWriter(io.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "ID\tNAME\tROLE\tCREATED\tEXPIRES\tREVOKED\tLAST USED")
	at := func(t time.Time) string {
		if t.IsZero() {
			return "-"
		}
		return t.UTC().Format(time.RFC3339)
	}
	for _, i := range list {
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", i.ID, i.Name, i.Role, at(i.Created), at(i.Expires), at(i.Revoked), at(i.LastUsed))
	}
	if err := w.Flush(); err != nil {
		return fail(io, "%v", err)
	}
	return exitOK
}

func tokenRef(io IO, cmd string, fs interface {
	NArg() int
	Arg(int) string
}) (string, int, bool) {
	if fs.NArg() != 1 {
		return "", usageErr(io, "token %s: give one token id or name", cmd), false
	}
	return fs.Arg(0), 0, true
}

func tokenRevoke(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "token revoke", "ID|NAME", `Revoke a token, named by its id or by the name of a token that is not
revoked. It is refused from then on on every surface, by a running ward
serve on the same data directory within a second, including MCP sessions
and event streams that were already open. Revocation is final; create a new
token to replace it.`)
	data := dataFlag(fs, "data directory")
	cfgPath := fs.String("config", "", "ward.toml whose [store] url names a shared database (default: ./ward.toml if present)")
	if code, ok := parseInterleaved(fs, args); !ok {
		return code
	}
	ref, code, ok := tokenRef(io, "revoke", fs)
	if !ok {
		return code
	}
	st, err := openTokens(ctx, *cfgPath, *data, false)
	if err != nil {
		return fail(io, "%v", err)
	}
	info, err := auth.RevokeRef(ctx, st, ref, time.Now())
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	switch {
	case errors.Is(err, auth.ErrNotFound):
		return fail(io, "token revoke: no token has the id or name %q", ref)
	case errors.Is(err, auth.ErrRevoked):
		return fail(io, "token revoke: %q is already revoked", ref)
	case err != nil:
		return fail(io, "%v", err)
	}
	fmt.Fprintf(io.Err, "revoked %s token %s named %q\n", info.Role, info.ID, info.Name)
	return exitOK
}

func tokenRotate(ctx context.Context, io IO, args []string) int {
	fs := flags(io, "token rotate", "ID|NAME", `Give a token a new secret and print it on its own line: the principal (id,
name, role, expiry) stays, so its sessions and audit history stay its own;
the old secret is refused from then on, by a running ward serve within a
second. A revoked or expired token cannot be rotated.`)
	data := dataFlag(fs, "data directory")
	cfgPath := fs.String("config", "", "ward.toml whose [store] url names a shared database (default: ./ward.toml if present)")
	asJSON := fs.Bool("json", false, "print {\"token\":...,\"principal\":{...}} as JSON")
	if code, ok := parseInterleaved(fs, args); !ok {
		return code
	}
	ref, code, ok := tokenRef(io, "rotate", fs)
	if !ok {
		return code
	}
	st, err := openTokens(ctx, *cfgPath, *data, false)
	if err != nil {
		return fail(io, "%v", err)
	}
	tok, p, err := auth.Rotate(ctx, st, ref, time.Now())
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	switch {
	case errors.Is(err, auth.ErrNotFound):
		return fail(io, "token rotate: no token has the id or name %q", ref)
	case errors.Is(err, auth.ErrRevoked):
		return fail(io, "token rotate: %q is revoked or expired", ref)
	case err != nil:
		return fail(io, "%v", err)
	}
	if *asJSON {
		return printJSON(io, map[string]any{"token": tok, "principal": p})
	}
	fmt.Fprintln(io.Out, tok)
	fmt.Fprintf(io.Err, "rotated %s token %s named %q (store the new secret now: it cannot be shown again)\n", p.Role, p.ID, p.Name)
	return exitOK
}
