package cli

import (
	"context"
	"net/http"
	"os"
	"regexp"

	"github.com/wardhq/ward/internal/daemon"
)

const walletPendingHelp = `Talk to a running 'ward serve' whose wallet sends from an ERC-4337 account
(wallet_kind = "erc4337"; see docs/chains.md, ERC-4337).

  ward wallet pending        the owner's transactions ward prepared and holds
                             (wallet_grant_session_key, wallet_revoke_session_key)
  ward wallet pending ID     one of them, pending or done

Ward holds no key of the account's owner: each entry is the call the owner
sends to the account (to, data) and, for an owner that is an EOA, the exact
unsigned transaction to sign (unsigned_tx, signing_hash). Ward reads the
account before answering (and every 15 seconds on its own) and marks an
entry done (done_tx) only once the chain shows the key granted or revoked;
an entry whose nonce the owner's account has passed without the change is
listed as "stale": do not sign it, commit the change again. The token must
be an owner's; it comes from --token or the WARD_TOKEN variable.`

var ownerTxID = regexp.MustCompile(`^[0-9A-Za-z_-]{1,64}$`)

// walletPending runs `ward wallet pending [ID]` against the daemon's API.
func walletPending(ctx context.Context, io IO, args []string) int {
	const name = "wallet pending"
	fs := flags(io, name, "[ID]", walletPendingHelp)
	addr := fs.String("addr", "http://"+daemon.DefaultAddr, "the daemon's URL")
	token := fs.String("token", "", "owner bearer token (default $WARD_TOKEN)")
	insecure := fs.Bool("insecure-remote", false, "allow plain http to a non-loopback address (sends the token in clear)")
	if code, ok := parseInterleaved(fs, args); !ok {
		return code
	}
	if fs.NArg() > 1 {
		return usageErr(io, "%s: want at most one argument (ID), got %d", name, fs.NArg())
	}
	path := "/v1/wallet/pending"
	if fs.NArg() == 1 {
		if !ownerTxID.MatchString(fs.Arg(0)) {
			return usageErr(io, "%s: ID %q: want 1 to 64 letters, digits, '-' or '_'", name, fs.Arg(0))
		}
		path += "/" + fs.Arg(0)
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
	return ownerRequest(ctx, io, name, base, *token, http.MethodGet, path, nil)
}
