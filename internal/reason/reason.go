// Package reason is the catalog of ward's stable reason codes: the
// machine-readable part of every decision, refusal and wire error. Codes are
// upper snake case and never change meaning once published; user policy
// rules may add their own codes of the same shape.
package reason

import (
	"slices"
)

// Code is a stable, machine-readable reason.
type Code string

// Valid reports whether c has the shape of a reason code: 1 to 64 characters
// of A-Z, 0-9 and '_', starting with a letter.
func (c Code) Valid() bool {
	if len(c) == 0 || len(c) > 64 || c[0] < 'A' || c[0] > 'Z' {
		return false
	}
	for i := 0; i < len(c); i++ {
		ch := c[i]
		if (ch < 'A' || ch > 'Z') && (ch < '0' || ch > '9') && ch != '_' {
			return false
		}
	}
	return true
}

// Codes of the policy engine and its built-in rule families.
const (
	Allowed  Code = "ALLOWED"    // no rule objected
	RuleErr  Code = "RULE_ERROR" // a rule failed or panicked: fail closed
	BadInput Code = "INVALID_ARGUMENTS"

	// authority
	AuthorityInsufficient Code = "AUTHORITY_INSUFFICIENT"
	ForbiddenTool         Code = "FORBIDDEN_TOOL"

	// command safety
	ForbiddenCommand  Code = "FORBIDDEN_COMMAND"
	MalformedCommand  Code = "MALFORMED_COMMAND"
	RateLimitExceeded Code = "RATE_LIMIT_EXCEEDED"

	// financial
	InvalidAmount           Code = "INVALID_AMOUNT"
	AmbiguousArgument       Code = "AMBIGUOUS_ARGUMENT"
	PerPaymentLimit         Code = "AMOUNT_EXCEEDS_PER_PAYMENT_LIMIT"
	HourlyTransferLimit     Code = "HOURLY_TRANSFER_LIMIT_EXCEEDED"
	DailyTransferLimit      Code = "DAILY_TRANSFER_LIMIT_EXCEEDED"
	TurnTransferLimit       Code = "TURN_TRANSFER_LIMIT_EXCEEDED"
	MinimumReserve          Code = "MINIMUM_RESERVE_VIOLATION"
	BalanceUnknown          Code = "BALANCE_UNKNOWN"
	ConfirmationRequired    Code = "CONFIRMATION_REQUIRED"
	X402DomainNotAllowed    Code = "X402_DOMAIN_NOT_ALLOWED"
	X402InsecureURL         Code = "X402_INSECURE_URL"
	X402AmountRequired      Code = "X402_AMOUNT_REQUIRED"
	X402PerRequestLimit     Code = "X402_PER_REQUEST_LIMIT_EXCEEDED"
	X402HourlyLimit         Code = "X402_HOURLY_LIMIT_EXCEEDED"
	X402DailyLimit          Code = "X402_DAILY_LIMIT_EXCEEDED"
	InferenceBudgetExceeded Code = "INFERENCE_BUDGET_EXCEEDED"
	UntrustedRecipient      Code = "UNTRUSTED_RECIPIENT"
	UnlimitedApproval       Code = "UNLIMITED_APPROVAL"

	// path protection
	ProtectedFile Code = "PROTECTED_FILE"
	SensitiveFile Code = "SENSITIVE_FILE"
	PathTraversal Code = "PATH_TRAVERSAL"
	InvalidPath   Code = "INVALID_PATH"

	// rate limits
	PerTurnLimit    Code = "PER_TURN_LIMIT_EXCEEDED"
	SessionLimit    Code = "SESSION_LIMIT_EXCEEDED"
	WindowRateLimit Code = "WINDOW_RATE_LIMIT_EXCEEDED"

	// validation
	InvalidPackageName  Code = "INVALID_PACKAGE_NAME"
	InvalidURL          Code = "INVALID_URL"
	InvalidAddress      Code = "INVALID_ADDRESS"
	ZeroAddress         Code = "ZERO_ADDRESS"
	InvalidGitHash      Code = "INVALID_GIT_HASH"
	InvalidPort         Code = "INVALID_PORT"
	InvalidCron         Code = "INVALID_CRON"
	ShellMetacharacters Code = "SHELL_METACHARACTERS"
	MissingArgument     Code = "MISSING_ARGUMENT"

	// audit and the gate
	AuditUnavailable Code = "AUDIT_UNAVAILABLE"

	// tool gate, hooks and permits
	SchemaInvalid       Code = "SCHEMA_VIOLATION"
	ToolUnavailable     Code = "TOOL_NOT_AVAILABLE"
	ChainNotSupported   Code = "CHAIN_NOT_SUPPORTED"
	ChainUnavailable    Code = "CHAIN_UNAVAILABLE"
	PhaseBlocked        Code = "PHASE_BLOCKED"
	TokenNotAllowed     Code = "TOKEN_NOT_ALLOWLISTED"
	ContractNotAllowed  Code = "CONTRACT_NOT_ALLOWLISTED"
	SelectorNotAllowed  Code = "SELECTOR_NOT_ALLOWLISTED"
	SpendTickLimit      Code = "SPEND_PER_TICK_LIMIT_EXCEEDED"
	SpendSessionLimit   Code = "SPEND_SESSION_LIMIT_EXCEEDED"
	SpendDailyLimit     Code = "SPEND_DAILY_LIMIT_EXCEEDED"
	ValueUnpriced       Code = "VALUE_UNPRICED"
	HookRateLimit       Code = "WRITE_RATE_LIMIT_EXCEEDED"
	SimulationReverted  Code = "SIMULATION_REVERTED"
	SimulationFailed    Code = "SIMULATION_FAILED"
	AddressChecksum     Code = "ADDRESS_CHECKSUM_MISMATCH"
	ContractMissing     Code = "CONTRACT_NOT_FOUND"
	SymbolMismatch      Code = "TOKEN_SYMBOL_MISMATCH"
	DecimalsMismatch    Code = "TOKEN_DECIMALS_MISMATCH"
	NotBookToken        Code = "TOKEN_NOT_IN_ADDRESS_BOOK"
	InsufficientBalance Code = "AMOUNT_EXCEEDS_BALANCE"
	HookError           Code = "HOOK_ERROR"
	PermitNotFound      Code = "PERMIT_NOT_FOUND"
	PermitConsumed      Code = "PERMIT_ALREADY_CONSUMED"
	PermitCancelled     Code = "PERMIT_CANCELLED"
	PermitExpired       Code = "PERMIT_EXPIRED"
	PermitMismatch      Code = "PERMIT_ARGS_MISMATCH"
	PolicyChanged       Code = "POLICY_CHANGED"
	PhaseChanged        Code = "PHASE_CHANGED"
	ToolChanged         Code = "TOOL_CHANGED"
	AnnounceDelay       Code = "ANNOUNCE_DELAY_PENDING"
	Halted              Code = "EMERGENCY_HALT"
	ApprovalRequired    Code = "OWNER_APPROVAL_REQUIRED"
	ApprovalInvalid     Code = "OWNER_APPROVAL_INVALID"
	BudgetExceeded      Code = "TICK_BUDGET_EXCEEDED"
	ExecutionFailed     Code = "EXECUTION_FAILED"
	TxInFlight          Code = "TX_IN_FLIGHT"
	CommitInterrupted   Code = "COMMIT_INTERRUPTED"
	NotPreviewable      Code = "NOT_PREVIEWABLE"
	VenueRequired       Code = "VENUE_REQUIRED"
	QuarantineNotFound  Code = "QUARANTINE_NOT_FOUND"
	RetryRejected       Code = "REJECTED_BY_OWNER"
	LookupLimited       Code = "TOO_MANY_FAILED_LOOKUPS"
	SessionsExhausted   Code = "SESSION_LIMIT"

	// Live data subscriptions (the stream_ tools).
	StreamLimit       Code = "STREAM_LIMIT_EXCEEDED"
	StreamNotFound    Code = "STREAM_NOT_FOUND"
	StreamInterval    Code = "STREAM_INTERVAL_TOO_SHORT"
	StreamUnavailable Code = "STREAM_UNAVAILABLE"
	StreamReadFailed  Code = "STREAM_READ_FAILED"

	// Trust and taint (seed 004).
	UntrustedProvenance Code = "UNTRUSTED_PROVENANCE"
	SessionUnderReview  Code = "SESSION_UNDER_REVIEW"
	TaintIsolation      Code = "TAINT_ISOLATION"
	TaintCheckFailed    Code = "TAINT_CHECK_FAILED"
	NotReviewer         Code = "NOT_A_REVIEWER"
	SelfReview          Code = "SELF_REVIEW"
	OutputNotFound      Code = "OUTPUT_NOT_FOUND"

	// Knowledge ingestion (seed 001).
	KnowledgeInvalid           Code = "KNOWLEDGE_INVALID"
	KnowledgeOracleHit         Code = "KNOWLEDGE_ORACLE_HIT"
	KnowledgeImmuneMatch       Code = "KNOWLEDGE_IMMUNE_MATCH"
	KnowledgeForgery           Code = "KNOWLEDGE_PROVENANCE_FORGERY"
	KnowledgeReplayed          Code = "KNOWLEDGE_REPLAYED"
	KnowledgeQuarantined       Code = "KNOWLEDGE_QUARANTINED"
	KnowledgeInjection         Code = "KNOWLEDGE_CONTENT_INJECTION"
	KnowledgeInflation         Code = "KNOWLEDGE_CONFIDENCE_INFLATION"
	KnowledgeEmbedding         Code = "KNOWLEDGE_EMBEDDING_ANOMALY"
	KnowledgeNoConsensus       Code = "KNOWLEDGE_NO_CONSENSUS"
	KnowledgeValidationError   Code = "KNOWLEDGE_VALIDATION_ERROR"
	KnowledgeConsensusFailed   Code = "KNOWLEDGE_CONSENSUS_FAILED"
	KnowledgeVerifiableFalse   Code = "KNOWLEDGE_VERIFIABLE_CLAIM_FALSE"
	KnowledgeRejected          Code = "KNOWLEDGE_REJECTED"
	KnowledgeAdopted           Code = "KNOWLEDGE_ADOPTED"
	KnowledgeSandboxRequired   Code = "KNOWLEDGE_SANDBOX_REQUIRED"
	KnowledgeSourceBlacklisted Code = "KNOWLEDGE_SOURCE_BLACKLISTED"
	KnowledgeSandboxExceeded   Code = "KNOWLEDGE_SANDBOX_RESOURCE_EXCEEDED"
	KnowledgeSandboxFailed     Code = "KNOWLEDGE_SANDBOX_FAILED"
	KnowledgeRolledBack        Code = "KNOWLEDGE_ROLLED_BACK"
)

// Entry documents one code of the catalog.
type Entry struct {
	Code    Code
	Meaning string
}

var catalog = []Entry{
	{Allowed, "no rule objected to the call"},
	{RuleErr, "a rule failed or panicked while evaluating; the call is denied (fail closed)"},
	{BadInput, "the call's arguments are not a valid JSON object within ward's limits"},
	{AuthorityInsufficient, "the input source's authority is too low for a dangerous tool"},
	{ForbiddenTool, "the tool's risk level is forbidden"},
	{ForbiddenCommand, "the shell command matches a forbidden pattern"},
	{MalformedCommand, "the shell command cannot be parsed safely (unterminated quote, too deep, too long)"},
	{RateLimitExceeded, "self-modification rate limit reached"},
	{InvalidAmount, "the amount is missing, negative, fractional or out of range"},
	{AmbiguousArgument, "two spellings of the same argument disagree"},
	{PerPaymentLimit, "the transfer exceeds the per-payment limit"},
	{HourlyTransferLimit, "executed transfers in the last 60 minutes plus this one exceed the hourly limit"},
	{DailyTransferLimit, "executed transfers in the last 24 hours plus this one exceed the daily limit"},
	{TurnTransferLimit, "the turn already executed the maximum number of transfers"},
	{MinimumReserve, "the transfer would leave the balance below the minimum reserve"},
	{BalanceUnknown, "the balance is unknown, so the minimum reserve cannot be checked"},
	{ConfirmationRequired, "the transfer is above the confirmation threshold and waits for the owner"},
	{X402DomainNotAllowed, "the x402 URL's host is not on the domain allowlist"},
	{X402InsecureURL, "the x402 URL is not https"},
	{X402AmountRequired, "an x402 payment must declare its maximum amount"},
	{X402PerRequestLimit, "the x402 payment exceeds the per-request limit"},
	{X402HourlyLimit, "executed x402 payments in the last 60 minutes plus this one exceed the hourly limit"},
	{X402DailyLimit, "executed x402 payments in the last 24 hours plus this one exceed the daily limit"},
	{InferenceBudgetExceeded, "inference spend in the last 24 hours plus this call exceeds the daily budget"},
	{UntrustedRecipient, "the write sends value to, or lets spend, an address that is not the owner's (address book, directive or trusted output) and is worth more than the threshold; it waits for the owner"},
	{UnlimitedApproval, "the write grants an unlimited allowance (2^255 base units or more); approve the exact amount instead"},
	{ProtectedFile, "the resolved path is a write-protected file"},
	{SensitiveFile, "the resolved path is a read-sensitive file"},
	{PathTraversal, "the resolved path is outside the agent's root"},
	{InvalidPath, "the path is empty, contains NUL or cannot be resolved"},
	{PerTurnLimit, "too many calls of this kind executed in the turn"},
	{SessionLimit, "too many calls of this kind executed in the session"},
	{WindowRateLimit, "too many calls of this kind executed in the sliding window"},
	{InvalidPackageName, "the package name is not a valid npm package specifier"},
	{InvalidURL, "the URL is not an absolute http(s) URL without credentials"},
	{InvalidAddress, "the value is not a 0x address with a valid EIP-55 checksum"},
	{ZeroAddress, "the recipient is the zero address"},
	{InvalidGitHash, "the value is not a git object hash"},
	{InvalidPort, "the value is not a port number between 1 and 65535"},
	{InvalidCron, "the value is not a valid cron expression"},
	{ShellMetacharacters, "a value interpolated into a command contains shell metacharacters or starts with '-'"},
	{MissingArgument, "a required argument is missing"},
	{AuditUnavailable, "the decision could not be written to the audit trail, so the call is refused"},
	{SchemaInvalid, "the arguments do not match the tool's parameter schema"},
	{ToolUnavailable, "the tool is not registered for this session's profile"},
	{ChainNotSupported, "the tool does not support the requested chain"},
	{ChainUnavailable, "every RPC endpoint of the chain failed recently, so the call is refused at once until the chain is tried again"},
	{PhaseBlocked, "the PolicyCage phase does not allow this kind of action"},
	{TokenNotAllowed, "a token the action moves is not on the allowlist"},
	{ContractNotAllowed, "a contract the action calls is not on the allowlist"},
	{SelectorNotAllowed, "a function the action calls is not on the allowlist"},
	{SpendTickLimit, "the action's USD value plus this tick's exceeds the per-tick limit"},
	{SpendSessionLimit, "the action's USD value plus the session's exceeds the per-session limit"},
	{SpendDailyLimit, "the action's USD value plus the last 24 hours' exceeds the daily limit"},
	{ValueUnpriced, "no price feed values the action, so spending limits cannot be checked"},
	{HookRateLimit, "too many writes in the rate limiter's window"},
	{SimulationReverted, "the pre-flight simulation on forked chain state reverted"},
	{SimulationFailed, "the pre-flight simulation could not run, so the action is refused"},
	{AddressChecksum, "an address has a wrong EIP-55 checksum"},
	{ContractMissing, "an address the action treats as a contract has no code"},
	{SymbolMismatch, "the token symbol the agent claimed is not the token's"},
	{DecimalsMismatch, "the decimals the agent claimed are not the token's"},
	{NotBookToken, "the token is not the one the address book lists under its symbol, or the book says the address is no token"},
	{InsufficientBalance, "the amount exceeds the wallet's balance"},
	{HookError, "a safety hook failed or panicked; the action is refused (fail closed)"},
	{PermitNotFound, "no permit has this id"},
	{PermitConsumed, "the permit was already committed"},
	{PermitCancelled, "the permit was cancelled"},
	{PermitExpired, "the permit expired before commit"},
	{PermitMismatch, "the commit's tool or arguments differ from the previewed ones"},
	{PolicyChanged, "the policy changed since the preview; preview again"},
	{PhaseChanged, "the PolicyCage phase changed since the preview; preview again"},
	{ToolChanged, "the tool's definition changed since the preview (an upstream server changed or was reloaded); preview again"},
	{AnnounceDelay, "an elevated action waits out its announce delay before commit"},
	{Halted, "writes are halted until the owner lifts the emergency halt"},
	{ApprovalRequired, "a privileged action needs the owner's signed approval"},
	{ApprovalInvalid, "the owner approval is not signed by the owner for this call"},
	{BudgetExceeded, "the tool did not finish within its tick budget"},
	{ExecutionFailed, "the tool ran and failed"},
	{CommitInterrupted, "ward stopped during the commit; the outcome was completed from the send journal when it restarted"},
	{TxInFlight, "an earlier transaction of the wallet is not yet known to be mined or dropped, so nothing was sent; the permit is used up: preview again once it settles"},
	{QuarantineNotFound, "no quarantined call of this session has this id"},
	{RetryRejected, "the owner rejected this same call (same tool and arguments) from this principal recently; it is refused without asking again"},
	{LookupLimited, "the principal looked up too many ids that do not exist (or are not its own) in a short time: wait before trying again"},
	{SessionsExhausted, "the principal holds as many live sessions as it may: reuse a session, or let idle ones expire"},
	{StreamLimit, "the session holds as many live data subscriptions as it may ([streaming] max_per_session): cancel one first"},
	{StreamNotFound, "the session has no live data subscription with this id (another session's subscriptions are not found either)"},
	{StreamInterval, "the subscription asks to be polled more often than [streaming] min_interval allows"},
	{StreamUnavailable, "live data subscriptions have stopped (ward is shutting down)"},
	{StreamReadFailed, "a subscription's value could not be read from the chain (a subscription:update event; the subscription goes on)"},
	{NotPreviewable, "no write adapter exists for this action and venue in the profile"},
	{VenueRequired, "several venues offer the action or lookup and the call names none; the message lists them"},
	{UntrustedProvenance, "a tainted session's state-changing or data-sending call has a security-relevant argument that does not come from the owner or a trusted tool; held for review"},
	{SessionUnderReview, "the session is under review: its state-changing and data-sending calls wait for the reviewer"},
	{TaintIsolation, "an isolated orchestrator may not read third-party content itself; delegate it to a tainted child session"},
	{TaintCheckFailed, "the taint check could not be made; nothing is returned (fail closed)"},
	{NotReviewer, "only a designated reviewer or judge of the session may read or judge its withheld output"},
	{SelfReview, "the session that produced a change can never review or judge it"},
	{OutputNotFound, "no withheld output has this key"},
	{KnowledgeInvalid, "the knowledge entry is malformed or out of bounds, or is not external knowledge"},
	{KnowledgeOracleHit, "the entry's content, or a near-duplicate of it, was flagged as poison here or by a peer; held in quarantine"},
	{KnowledgeImmuneMatch, "the entry matches the structural signature of a rejected entry (previously_rejected_pattern); held in quarantine"},
	{KnowledgeForgery, "the entry is unsigned, its EIP-712 signature does not hold, or its agent is not in the identity registry"},
	{KnowledgeReplayed, "the same agent delivered the same content before"},
	{KnowledgeQuarantined, "the entry passed Stage 1 and waits in quarantine for consensus validation"},
	{KnowledgeInjection, "the entry's content, claim or heuristic carries instruction-like text (prompt injection)"},
	{KnowledgeInflation, "the entry claims more confidence than its provenance allows"},
	{KnowledgeEmbedding, "the entry's supplied embedding does not match its content"},
	{KnowledgeNoConsensus, "no Stage 2 validators are configured: the entry stays in quarantine, never adopted"},
	{KnowledgeValidationError, "a Stage 2 validator could not decide: the entry stays in quarantine"},
	{KnowledgeConsensusFailed, "too few Stage 2 validators passed the entry for the strictness level"},
	{KnowledgeVerifiableFalse, "L3 proved a claim of the entry false (verifiable_claim_false): an address that ward's address book lists as something else, a look-alike of a book address, a token's decimals or a protocol number the book or the protocol's fixed rules contradict, or chain state that differs at the block it names; rejected whatever the other layers say"},
	{KnowledgeRejected, "the quarantined entry was rejected by review"},
	{KnowledgeAdopted, "the entry passed consensus and was adopted into the Grimoire at low confidence"},
	{KnowledgeSandboxRequired, "an actionable entry passed consensus and the strictness level requires the Stage 3 sandbox, but the entry cannot be evaluated (it cannot be decomposed, no evaluator is configured, or the sandbox could not put in force the isolation Stage 3 requires): the entry stays in quarantine"},
	{KnowledgeSourceBlacklisted, "the entry's source agent is blacklisted: more than half of its entries failed, reported by 3 or more buyers"},
	{KnowledgeSandboxExceeded, "the actionable entry's Stage 3 evaluation breached a sandbox limit (wall clock, memory, CPU, disk, processes, network) or a component's CEL cost budget: rejected"},
	{KnowledgeSandboxFailed, "the actionable entry's Stage 3 evaluation did worse than the hold baseline (worst-case loss, drawdown or mean return beyond tolerance): rejected"},
	{KnowledgeRolledBack, "the adopted entry was undone by causal rollback: its immune signature and oracle flag hold copies and variants of it in quarantine"},
}

// Catalog returns the documented codes in a stable order.
func Catalog() []Entry { return slices.Clone(catalog) }

// Known reports whether c is one of ward's own codes.
func Known(c Code) bool {
	return slices.ContainsFunc(catalog, func(e Entry) bool { return e.Code == c })
}
