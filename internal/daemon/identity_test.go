package daemon

import (
	"errors"
	"testing"

	"github.com/wardhq/ward/internal/config"
	"github.com/wardhq/ward/internal/identity"
)

// A configured ERC-8004 identity registry is checked when the stack
// opens: an address without a contract stops the start with a clear error
// rather than refusing every stranger later.
func TestGrimoireIdentityRegistryWithoutCode(t *testing.T) {
	f, err := config.Parse("ward.toml", []byte("[grimoire]\nidentity_registry = \"0x80040000000000000000000000000000000000aA\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := OpenData(t.Context(), t.TempDir(), f)
	if err == nil {
		st.Close()
		t.Fatal("the stack opened with an identity registry address that holds no contract")
	}
	if !errors.Is(err, identity.ErrNoCode) {
		t.Fatalf("err = %v, want identity.ErrNoCode", err)
	}
}
