package shell

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestDecodeBase64Short checks the stack-buffer decoder against the
// definition of decodeBase64 for ASCII input.
func TestDecodeBase64Short(t *testing.T) {
	want := decodeBase64Any
	inputs := []string{"", "\n", "cm0gLXJmIC8=", "cm0gLXJmIC8=\n", "cm0gLXJmIC8", "cm0g LXJm\tIC8=\r\n", "a-_b", "ab==", "a===",
		"cm0g\u0120LXJmIC8=", "\xff", strings.Repeat("QUJD", 64), strings.Repeat("QUJD", 65)}
	r := rand.New(rand.NewPCG(5, 6))
	const alphabet = "ABCabc019+/-_= \n\t\r="
	for range 20000 {
		b := make([]byte, r.IntN(24))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		inputs = append(inputs, string(b))
	}
	for _, in := range inputs {
		w, wok := want(in)
		if got, ok := decodeBase64(in); got != w || ok != wok {
			t.Errorf("decodeBase64(%q) = %q, %v, want %q, %v", in, got, ok, w, wok)
		}
	}
}
