package privileged_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/wardhq/ward/internal/catalog/privileged"
	"github.com/wardhq/ward/internal/registry"
	"github.com/wardhq/ward/internal/tool"
)

// FuzzSessionKeyArgs: whatever arguments an agent sends, the session-key
// tools' plans answer with an error or a plan, never a panic, and a
// listed tool (bound to no account) never plans at all.
func FuzzSessionKeyArgs(f *testing.F) {
	for _, s := range []string{
		`{"session_key":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed","calls":[{"target":"0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359","selector":"0xa9059cbb"}],"value_cap_wei":"1","valid_until":4102444800}`,
		`{"session_key":"0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"}`,
		`{"session_key":1,"calls":{"target":[]},"valid_until":"x"}`,
		`{"calls":[{"target":"0x","selector":"0x"},null,7]}`,
		`{"valid_until":-1,"value_cap_wei":"99999999999999999999999999999999999999999"}`,
	} {
		f.Add(s)
	}
	byName := map[string]registry.Tool{}
	for _, tl := range privileged.All() {
		byName[tl.Def.Name] = tl
	}
	f.Fuzz(func(t *testing.T, raw string) {
		a, err := tool.ParseArgs(json.RawMessage(raw))
		if err != nil {
			return
		}
		for _, name := range []string{"wallet_grant_session_key", "wallet_revoke_session_key"} {
			p, err := byName[name].Plan(context.Background(), &registry.Input{Args: a, Raw: json.RawMessage(raw), Now: time.Now(), Step: func(int) {}})
			if err == nil || p != nil {
				t.Fatalf("%s planned %s with no account: %+v", name, raw, p)
			}
		}
	})
}
