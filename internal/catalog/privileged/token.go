package privileged

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/wardhq/ward/internal/auth"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// tokenTools are the privileged tools over the bearer tokens of agents
// and peers (their session keys for ward): auth's Create, RevokeRef and
// Rotate, which POST /v1/tokens, /v1/tokens/{ref}/revoke and
// /v1/tokens/{ref}/rotate call. An owner token is out of their reach:
// none is issued, revoked or rotated by a tool, whoever signs, so a tool's
// result never carries an owner's secret and an agent cannot lock the
// owner out.
func tokenTools() []spec {
	return []spec{issueToken(auth.Agent, "wallet_issue_agent_token", "issue_agent_token"),
		issueToken(auth.Peer, "wallet_issue_peer_token", "issue_peer_token"), revokeToken, rotateToken}
}

const principalResult = `{"type":"object","required":["id","name","role"],"properties":{"id":{"type":"string"},"name":{"type":"string"},` +
	`"role":{"type":"string"},"token":{"type":"string"},"expires":{"type":"string"},"revoked":{"type":"string"}}}`

func issueToken(role auth.Role, name, action string) spec {
	return spec{
		name: name, action: action, category: tool.CatWallet,
		description: fmt.Sprintf("Owner-approved: issue a new %s bearer token for ward (a session key: its holder calls ward as an %s), "+
			"with a name and an optional lifetime. The token is in this result only, once; it can be revoked with "+
			"wallet_revoke_agent_token. No owner token is ever issued this way.", role, role),
		params: `{"type":"object","additionalProperties":false,"required":["name"],"properties":{` +
			`"name":{"type":"string","minLength":1,"maxLength":128,"description":"A name no live token has."},` +
			`"ttl":{"type":"string","pattern":"^[0-9]+(h|m|s)$","description":"Lifetime, e.g. \"720h\"; none: until revoked."}}}`,
		result: principalResult,
		check: func(_ context.Context, _ *Config, in *registry.Input) (string, error) {
			if _, err := tokenSpec(role, in); err != nil {
				return "", err
			}
			return fmt.Sprintf("issue %s token %q", role, str(in, "name")), nil
		},
		run: func(ctx context.Context, cfg *Config, in *registry.Input, _ string) (any, string, string, error) {
			sp, err := tokenSpec(role, in)
			if err != nil {
				return nil, "", "", err
			}
			if cfg.Principals == nil {
				return nil, "", "", errUnbound
			}
			tok, p, err := auth.Create(ctx, cfg.Principals, sp, cfg.Now())
			if err != nil {
				return nil, "", "", fmt.Errorf("issue token: %w", err)
			}
			out := map[string]string{"id": p.ID, "name": p.Name, "role": string(p.Role), "token": tok}
			if !p.Expires.IsZero() {
				out["expires"] = p.Expires.Format(time.RFC3339)
			}
			return out, "live " + string(role) + " token " + sp.Name, "live " + string(p.Role) + " token " + p.Name, nil
		},
	}
}

// tokenSpec reads and checks the arguments of a token's issue.
func tokenSpec(role auth.Role, in *registry.Input) (auth.Spec, error) {
	sp := auth.Spec{Role: role, Name: str(in, "name")}
	if err := auth.CheckName(sp.Name); err != nil {
		return sp, err
	}
	if t := str(in, "ttl"); t != "" {
		d, err := time.ParseDuration(t)
		if err != nil || d <= 0 || d > auth.MaxTTL {
			return sp, errors.New(`ttl must be a positive duration of at most 10 years, e.g. "720h"`)
		}
		sp.TTL = d
	}
	return sp, nil
}

const refParams = `{"type":"object","additionalProperties":false,"required":["ref"],"properties":{` +
	`"ref":{"type":"string","minLength":1,"maxLength":128,"description":"The token's principal id or live name."}}}`

// agentOrPeer finds the principal ref names and refuses an owner's.
func agentOrPeer(ctx context.Context, cfg *Config, ref string) (string, error) {
	if cfg.Principals == nil {
		return "", errUnbound
	}
	r, err := auth.Find(ctx, cfg.Principals, ref)
	if err != nil {
		return "", fmt.Errorf("token %q: %w", ref, err)
	}
	if auth.Role(r.Role) == auth.Owner {
		return "", fmt.Errorf("token %q is an owner's: only agent and peer tokens are managed by tools", ref)
	}
	return r.ID, nil
}

var revokeToken = spec{
	name: "wallet_revoke_agent_token", action: "revoke_token", category: tool.CatWallet,
	description: "Owner-approved: revoke an agent's or peer's bearer token (by principal id or live name): it is refused from then on, " +
		"in this process at once and in other processes within a second, open event streams and MCP sessions included. " +
		"Owner tokens cannot be revoked this way.",
	params: refParams, result: principalResult,
	check: func(ctx context.Context, cfg *Config, in *registry.Input) (string, error) {
		id, err := agentOrPeer(ctx, cfg, str(in, "ref"))
		if err != nil {
			return "", err
		}
		return "revoke token " + id, nil
	},
	run: func(ctx context.Context, cfg *Config, in *registry.Input, _ string) (any, string, string, error) {
		id, err := agentOrPeer(ctx, cfg, str(in, "ref"))
		if err != nil {
			return nil, "", "", err
		}
		info, err := auth.RevokeRef(ctx, cfg.Principals, id, cfg.Now())
		if err != nil {
			return nil, "", "", fmt.Errorf("revoke token: %w", err)
		}
		if cfg.Invalidate != nil {
			cfg.Invalidate(info.ID)
		}
		return map[string]string{"id": info.ID, "name": info.Name, "role": string(info.Role), "revoked": info.Revoked.Format(time.RFC3339)},
			"token " + id + " revoked", "token " + info.ID + " revoked", nil
	},
}

var rotateToken = spec{
	name: "wallet_rotate_agent_token", action: "rotate_token", category: tool.CatWallet,
	description: "Owner-approved: give an agent's or peer's token (by principal id or live name) a new secret, returned in this result " +
		"only, once; the old secret is refused from then on. Owner tokens cannot be rotated this way.",
	params: refParams, result: principalResult,
	check: func(ctx context.Context, cfg *Config, in *registry.Input) (string, error) {
		id, err := agentOrPeer(ctx, cfg, str(in, "ref"))
		if err != nil {
			return "", err
		}
		return "rotate token " + id, nil
	},
	run: func(ctx context.Context, cfg *Config, in *registry.Input, _ string) (any, string, string, error) {
		id, err := agentOrPeer(ctx, cfg, str(in, "ref"))
		if err != nil {
			return nil, "", "", err
		}
		tok, p, err := auth.Rotate(ctx, cfg.Principals, id, cfg.Now())
		if err != nil {
			return nil, "", "", fmt.Errorf("rotate token: %w", err)
		}
		if cfg.Invalidate != nil {
			cfg.Invalidate(p.ID)
		}
		return map[string]string{"id": p.ID, "name": p.Name, "role": string(p.Role), "token": tok},
			"token " + id + " rotated", "token " + p.ID + " rotated", nil
	},
}
