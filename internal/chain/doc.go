// Package chain is ward's access to Ethereum-compatible chains: reading
// state, simulating writes on forked state, and sending the transactions
// of a plan the safety layer has allowed.
//
// Guarantees:
//
//   - Wallet.Send is the only broadcast path for a wallet's key, and it
//     consumes a capability (minted by the gate after policy and hooks)
//     before it signs anything: a nil, zero, reused, expired or
//     out-of-scope capability sends nothing. The wallet never exposes its
//     Signer. Sends from one Wallet are serialised, so nonces are
//     consecutive and never reused. Signing an EIP-2612 permit is
//     off-chain and needs no capability (see Wallet.SignPermit).
//   - A Wallet with a Journal writes each signed transaction (its hash and
//     exact bytes, nonce, permit and place in the plan) durably before it
//     is broadcast, and sends nothing if that write fails. After a crash,
//     Wallet.Reconcile settles what the journal holds in flight: mined,
//     dropped (another transaction took the nonce), or rebroadcast as the
//     same signed bytes while its nonce is free; it never re-signs and
//     never sends the rest of an interrupted plan. A Send refuses while a
//     transaction of its wallet is still in flight, and never starts below
//     a nonce the journal holds.
//   - A LocalSigner's key never leaves it: formatting, JSON, slog and
//     %#v print the address only; Close zeroes the key.
//   - A Provider talks to one chain ID, checked once when it opens. It
//     retries transient failures (network errors, HTTP 429 and 5xx, a node
//     that has not seen the block yet) with exponential backoff and jitter,
//     and never retries reverts or other client errors. A request is
//     bounded by a timeout; a stall is never retried against the same
//     endpoint, and while every endpoint of the chain is down its calls
//     fail at once with a *DownError (ErrChainDown) until one call probes
//     an endpoint again. A revert comes back
//     as a *RevertError carrying the decoded reason and the raw data.
//     The latest header is cached for a short TTL (and dropped when the
//     provider sees a newer block in a receipt); headers by number are
//     cached in an LRU.
//   - Simulator.Simulate runs a plan's transactions in sequence on one
//     fork of the chain's latest state (w3vm: go-ethereum's EVM over state
//     read through the provider, with the chain's own protocol rules) and
//     returns what they would do: a revert is a result, an error means the
//     simulation itself could not run. State read at a block is kept for
//     later simulations at that block, so a warm preview reads nothing
//     from the node; a cold one prefetches what the node's access lists
//     name in batch requests.
//   - DevChain is an in-process chain (go-ethereum's simulated backend,
//     chain ID 1337) with deterministic funded accounts and, after Deploy,
//     a deterministic set of DeFi contracts (internal/chain/artifacts) at
//     the same addresses on every run with the same seed. With AutoCommit
//     it mines whenever a transaction is pending, so Wallet.Send gets its
//     receipts.
//
// go-ethereum is imported only here (and in chain/artifacts' tests), so
// only packages that import chain link it.
package chain
