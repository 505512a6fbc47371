package gate

import (
	"errors"
	"fmt"

	"github.com/ethereum/go-ethereum/accounts"
	"github.com/ethereum/go-ethereum/crypto"

	"github.com/wardhq/ward/internal/tool"
)

// ApprovalMessage is the text an owner signs (EIP-191 personal_sign) to
// approve one privileged call: it names the permit, the tool and the
// arguments' canonical hash, so the signature cannot approve anything else.
func ApprovalMessage(permitID, toolName string, argsHash [32]byte) string {
	return fmt.Sprintf("ward approval\npermit: %s\ntool: %s\nargs: %s", permitID, toolName, hashHex(argsHash))
}

// OwnerApprover verifies approvals signed by one owner key.
type OwnerApprover struct {
	Owner tool.Address
}

// VerifyApproval recovers the signer of the approval message for the call
// and checks it is the owner.
func (o OwnerApprover) VerifyApproval(permitID, toolName string, argsHash [32]byte, sig []byte) (string, error) {
	if o.Owner.IsZero() {
		return "", errors.New("no owner address configured")
	}
	if len(sig) != 65 {
		return "", fmt.Errorf("signature is %d bytes, want 65", len(sig))
	}
	s := make([]byte, 65)
	copy(s, sig)
	if s[64] >= 27 {
		s[64] -= 27
	}
	if s[64] > 1 {
		return "", errors.New("signature recovery id out of range")
	}
	h := accounts.TextHash([]byte(ApprovalMessage(permitID, toolName, argsHash)))
	pub, err := crypto.SigToPub(h, s)
	if err != nil {
		return "", fmt.Errorf("recover signer: %w", err)
	}
	signer := crypto.PubkeyToAddress(*pub)
	if tool.Address(signer) != o.Owner {
		return "", fmt.Errorf("signed by %s, not the owner %s", signer.Hex(), o.Owner.Hex())
	}
	return o.Owner.Hex(), nil
}
