package yieldvault

import (
	"math/big"
	"testing"
)

func TestDSRAPY(t *testing.T) {
	five, _ := new(big.Int).SetString("1000000001547125957863212448", 10)
	huge, _ := new(big.Int).SetString("1000001000000000000000000000", 10)
	for _, c := range []struct {
		name    string
		dsr     *big.Int
		want    float64
		wantErr bool
	}{
		{"zero rate", new(big.Int).Set(ray), 0, false},
		{"five percent", five, 5, false},
		{"below one", new(big.Int).Sub(ray, big.NewInt(1)), 0, true},
		{"implausible", huge, 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := dsrAPY(c.dsr)
			if (err != nil) != c.wantErr || (err == nil && (got < c.want-1e-6 || got > c.want+1e-6)) {
				t.Errorf("dsrAPY(%s) = %v, %v; want %v (error %v)", c.dsr, got, err, c.want, c.wantErr)
			}
		})
	}
}
