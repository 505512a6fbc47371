package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/wardhq/ward/internal/daemon"
)

const safeHelp = `Talk to a running 'ward serve' whose wallet sends from a Safe
(wallet_kind = "safe"; see docs/chains.md, Signers).

  ward safe list                  the Safe transactions awaiting owners' signatures
  ward safe sign HASH SIGNATURE   add an owner's signature (0x, 65 bytes r‖s‖v, v 27
                                  or 28, over the SafeTx hash HASH); ward executes the
                                  transaction once the Safe's threshold is met

The signature is checked by ward against the Safe's owners (ecrecover). The
token must be an owner's; it comes from --token or the WARD_TOKEN variable.`

var (
	safeTxHash = regexp.MustCompile(`^0x[0-9a-fA-F]{64}$`)
	safeSigHex = regexp.MustCompile(`^0x[0-9a-fA-F]{130}$`)
)

func safeList(ctx context.Context, io IO, args []string) int {
	return safeCmd(ctx, io, "safe list", "", args, 0)
}

func safeSign(ctx context.Context, io IO, args []string) int {
	return safeCmd(ctx, io, "safe sign", "HASH SIGNATURE", args, 2)
}

// safeCmd runs `ward safe list` (nargs 0) or `ward safe sign` (nargs 2)
// against the daemon's API and prints its JSON answer.
func safeCmd(ctx context.Context, io IO, name, argsUsage string, args []string, nargs int) int {
	fs := flags(io, name, argsUsage, safeHelp)
	addr := fs.String("addr", "http://"+daemon.DefaultAddr, "the daemon's URL")
	token := fs.String("token", "", "owner bearer token (default $WARD_TOKEN)")
	insecure := fs.Bool("insecure-remote", false, "allow plain http to a non-loopback address (sends the token in clear)")
	if code, ok := parseInterleaved(fs, args); !ok {
		return code
	}
	if fs.NArg() != nargs {
		return usageErr(io, "%s: want %d arguments (%s), got %d", name, nargs, argsUsage, fs.NArg())
	}
	if *token == "" {
		*token = os.Getenv("WARD_TOKEN")
	}
	if *token == "" {
		return usageErr(io, "%s: a bearer token is required (--token or WARD_TOKEN; see ward token create --role owner)", name)
	}
	base, err := apiBase(*addr, *insecure)
	if err != nil {
		return usageErr(io, "%s: %v", name, err)
	}
	method, path, body := http.MethodGet, "/v1/safe", []byte(nil)
	if nargs == 2 {
		hash, sig := fs.Arg(0), fs.Arg(1)
		switch {
		case !safeTxHash.MatchString(hash):
			return usageErr(io, "%s: HASH %q: want 0x and 64 hex digits", name, hash)
		case !safeSigHex.MatchString(sig):
			return usageErr(io, "%s: SIGNATURE: want 0x and 130 hex digits (r ‖ s ‖ v)", name)
		}
		method, path = http.MethodPost, "/v1/safe/"+strings.ToLower(hash)+"/signatures"
		body, _ = json.Marshal(map[string]string{"signature": sig})
	}
	return ownerRequest(ctx, io, name, base, *token, method, path, body)
}

// ownerRequest sends an owner's request to the daemon's API and prints
// its JSON answer indented; an error answer is a failure naming its code.
func ownerRequest(ctx context.Context, io IO, name, base, token, method, path string, body []byte) int {
	ctx, cancel := context.WithTimeout(ctx, 4*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, method, base+path, bytes.NewReader(body))
	if err != nil {
		return fail(io, "%s: %v", name, err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fail(io, "%s: %v", name, err)
	}
	defer resp.Body.Close()
	out, err := readAnswer(resp.Body)
	if err != nil {
		return fail(io, "%s: %v", name, err)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error struct{ Code, Message string } `json:"error"`
		}
		if json.Unmarshal(out, &e) == nil && e.Error.Code != "" {
			return fail(io, "%s: %s: %s", name, e.Error.Code, e.Error.Message)
		}
		return fail(io, "%s: HTTP %d", name, resp.StatusCode)
	}
	var pretty bytes.Buffer
	if json.Indent(&pretty, out, "", "  ") != nil {
		return fail(io, "%s: the daemon answered something other than JSON", name)
	}
	fmt.Fprintln(io.Out, pretty.String())
	return exitOK
}

// readAnswer reads at most 1 MiB of an answer.
func readAnswer(r io.Reader) ([]byte, error) { return io.ReadAll(io.LimitReader(r, 1<<20)) }

// apiBase checks the daemon's URL: http(s) with a host, plain http only to
// a loopback address unless insecure (the token would travel in clear).
func apiBase(addr string, insecure bool) (string, error) {
	if !strings.Contains(addr, "://") {
		addr = "http://" + addr
	}
	u, err := url.Parse(addr)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("address %q: want http(s)://host:port", addr)
	}
	if u.Scheme == "http" && !insecure {
		h := u.Hostname()
		if ip := net.ParseIP(h); h != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return "", fmt.Errorf("%s is not a loopback address: use https, or pass --insecure-remote to send the token in clear", u.Host)
		}
	}
	return strings.TrimSuffix(u.String(), "/"), nil
}
