package format

import (
	"math"
	"strconv"
	"testing"
)

func TestPort(t *testing.T) {
	tests := []struct {
		in   int64
		want bool
	}{
		{1, true},
		{22, true},
		{443, true},
		{65535, true},
		{0, false},
		{-1, false},
		{65536, false},
		{math.MaxInt64, false},
		{math.MinInt64, false},
	}
	for _, tc := range tests {
		t.Run(strconv.FormatInt(tc.in, 10), func(t *testing.T) {
			if got := Port(tc.in) == nil; got != tc.want {
				t.Errorf("Port(%d) valid = %v, want %v", tc.in, got, tc.want)
			}
		})
	}
}

var portStringCases = []formatCase{
	{"one", "1", nil},
	{"http", "80", nil},
	{"https", "443", nil},
	{"max", "65535", nil},

	{"empty", "", errPortSyntax},
	{"zero", "0", errPortRange},
	{"double zero", "00", errPortSyntax},
	{"leading zero", "080", errPortSyntax},
	{"above max", "65536", errPortRange},
	{"five nines", "99999", errPortRange},
	{"six digits", "123456", errPortRange},
	{"huge", "99999999999999999999999", errPortRange},
	{"plus", "+80", errPortSyntax},
	{"minus", "-1", errPortSyntax},
	{"leading space", " 80", errPortSyntax},
	{"trailing space", "80 ", errPortSyntax},
	{"inner space", "8 0", errPortSyntax},
	{"hex", "0x50", errPortSyntax},
	{"underscore", "8_0", errPortSyntax},
	{"fullwidth", "\uff18\uff10", errPortSyntax},
	{"newline", "80\n", errPortSyntax},
}

func TestPortString(t *testing.T) {
	runCases(t, PortString, portStringCases)
}
