package taint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"log/slog"
	"reflect"
	"strings"
	"sync"
	"testing"
)

const secret = "sk-SECRETVALUE-0xdeadbeef"

var allSinks = []Sink{LLMContext, EventStream, Relay, Audit, Logs}

// wantForbidden is the flow table written independently of the package's.
var wantForbidden = map[Sink][]Label{
	LLMContext:  {WalletSecret, OwnerSecret},
	EventStream: {WalletSecret},
	Relay:       {WalletSecret, OwnerSecret, StrategyConfidential, UserPII},
	Audit:       {WalletSecret, OwnerSecret},
	Logs:        {WalletSecret, OwnerSecret, UserPII},
}

func wantAllowed(ls Labels, s Sink) bool {
	forb, ok := wantForbidden[s]
	if !ok {
		return false
	}
	for _, l := range forb {
		if ls.Has(l) {
			return false
		}
	}
	return ls&unknownBit == 0
}

func labelsOf(set uint8) []Label {
	var out []Label
	for l := range numLabels {
		if set&(1<<l) != 0 {
			out = append(out, l)
		}
	}
	return out
}

func TestRevealFlowTable(t *testing.T) {
	for set := range uint8(1 << numLabels) {
		labels := labelsOf(set)
		for _, sink := range append(allSinks, Sink(200)) {
			ls := Labels(0).With(labels...)
			t.Run(ls.String()+"/"+sink.String(), func(t *testing.T) {
				s := New(secret, labels...)
				got, err := s.Reveal(sink)
				if want := wantAllowed(ls, sink); want {
					if err != nil || got != secret {
						t.Fatalf("Reveal(%s) = %q, %v; want the value", sink, got, err)
					}
					return
				}
				if !errors.Is(err, ErrForbidden) || got != "" {
					t.Fatalf("Reveal(%s) = %q, %v; want ErrForbidden", sink, got, err)
				}
				if strings.Contains(err.Error(), secret) {
					t.Fatalf("error %q shows the value", err)
				}
				if ls != 0 && !strings.Contains(err.Error(), ls.Forbidden(sink).String()) {
					t.Errorf("error %q does not name the forbidding labels %s", err, ls.Forbidden(sink))
				}
			})
		}
	}
}

func TestUnknownLabelForbidsEverything(t *testing.T) {
	s := New(secret, Label(99))
	for _, sink := range allSinks {
		if _, err := s.Reveal(sink); !errors.Is(err, ErrForbidden) {
			t.Errorf("Reveal(%s) err = %v, want ErrForbidden", sink, err)
		}
	}
	if got := s.Labels().String(); got != "unknown" {
		t.Errorf("Labels = %q, want unknown", got)
	}
}

func TestLabels(t *testing.T) {
	a := Labels(0).With(WalletSecret)
	b := Labels(0).With(UserPII, UntrustedExternal)
	u := a.Union(b)
	for _, l := range []Label{WalletSecret, UserPII, UntrustedExternal} {
		if !u.Has(l) {
			t.Errorf("union %s lacks %s", u, l)
		}
	}
	if u.Has(OwnerSecret) {
		t.Errorf("union %s has owner-secret", u)
	}
	if got, want := u.String(), "wallet-secret,user-pii,untrusted-external"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	if got, _ := json.Marshal(map[string]any{"l": u, "one": UserPII, "sink": Relay}); string(got) != `{"l":"wallet-secret,user-pii,untrusted-external","one":"user-pii","sink":"relay"}` {
		t.Errorf("json = %s", got)
	}
}

type holder struct {
	Name string
	Key  *String
	Keys []*String
	ByID map[string]*String
}

// byValue holds a String by value; the tests set its state directly to avoid
// the copy vet would report.
type byValue struct {
	Key String
	key String
}

func newByValue() *byValue {
	h := &byValue{}
	h.Key.st = New(secret, OwnerSecret).st
	h.key.st = New(secret, OwnerSecret).st
	return h
}

// leaks lists every way the tests push a tainted value out through fmt,
// errors, json, slog and log.
func leaks(s *String) map[string]func() []byte {
	h := &holder{Name: "n", Key: s, Keys: []*String{s, s}, ByID: map[string]*String{"a": s}}
	bv := newByValue()
	out := map[string]func() []byte{}
	for _, v := range []string{
		"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%T", "%p", "%10.3s", "%-40q", "%#x", "% x", "%08d", "%U", "%c", "%t", "%e", "%!",
	} {
		out["fmt "+v] = func() []byte { return fmt.Appendf(nil, v, s) }
		out["fmt struct "+v] = func() []byte { return fmt.Appendf(nil, v, h) }
		out["fmt struct deref "+v] = func() []byte { return fmt.Appendf(nil, v, *h) }
		out["fmt by-value field "+v] = func() []byte { return fmt.Appendf(nil, v, bv) }
		out["fmt slice "+v] = func() []byte { return fmt.Appendf(nil, v, []*String{s}) }
		out["fmt map "+v] = func() []byte { return fmt.Appendf(nil, v, map[*String]*String{s: s}) }
		out["fmt any slice "+v] = func() []byte { return fmt.Appendf(nil, v, []any{s, h}) }
	}
	out["Sprint"] = func() []byte { return []byte(fmt.Sprint(s, h)) }
	out["Sprintln"] = func() []byte { return []byte(fmt.Sprintln(s, h)) }
	out["String"] = func() []byte { return []byte(s.String()) }
	out["GoString"] = func() []byte { return []byte(s.GoString()) }
	out["Errorf %v"] = func() []byte { return []byte(fmt.Errorf("sign: %v", s).Error()) }
	out["Errorf %w chain"] = func() []byte {
		inner := fmt.Errorf("key %s rejected", s)
		return []byte(fmt.Errorf("outer: %w", inner).Error())
	}
	out["errors.Join"] = func() []byte {
		return []byte(errors.Join(fmt.Errorf("a %v", s), fmt.Errorf("b %+v", h)).Error())
	}
	out["Errorf %+v of joined"] = func() []byte {
		return fmt.Appendf(nil, "%+v", errors.Join(fmt.Errorf("%#v", h)))
	}
	out["json pointer"] = func() []byte { b, _ := json.Marshal(s); return b }
	out["json struct"] = func() []byte { b, _ := json.Marshal(h); return b }
	out["json struct by value"] = func() []byte { b, _ := json.Marshal(*h); return b }
	out["json by-value field ptr"] = func() []byte { b, _ := json.Marshal(bv); return b }
	// reflect copies the String at run time, out of vet's sight, to see what
	// a non-addressable String value marshals to.
	out["json by-value field"] = func() []byte { b, _ := json.Marshal(reflect.ValueOf(bv).Elem().Interface()); return b }
	out["MarshalText"] = func() []byte { b, _ := s.MarshalText(); return b }
	for name, mk := range map[string]func(*bytes.Buffer) slog.Handler{
		"text": func(b *bytes.Buffer) slog.Handler { return slog.NewTextHandler(b, nil) },
		"json": func(b *bytes.Buffer) slog.Handler { return slog.NewJSONHandler(b, nil) },
	} {
		out["slog "+name] = func() []byte {
			var buf bytes.Buffer
			l := slog.New(mk(&buf))
			l.Info("attr", "key", s)
			l.Info("any", slog.Any("key", s), slog.Any("holder", h), slog.Any("byvalue", bv))
			l.Info("group", slog.Group("g", slog.Any("key", s), "h", h))
			l.With("key", s).WithGroup("g2").Info("with", "key", s)
			l.Info(fmt.Sprint(s), "err", fmt.Errorf("%w", fmt.Errorf("%v", s)))
			return buf.Bytes()
		}
	}
	out["log.Printf"] = func() []byte {
		var buf bytes.Buffer
		l := log.New(&buf, "", 0)
		l.Printf("key=%v %s %q %#v %+v", s, s, s, s, h)
		l.Println(s, h)
		return buf.Bytes()
	}
	out["Concat"] = func() []byte { return fmt.Appendf(nil, "%v %s", Concat(s, New("x")), Concat(New("a"), s)) }
	out["Format"] = func() []byte { return fmt.Appendf(nil, "%v %q", Format("k=%s", s), Format("%v", h)) }
	return out
}

func TestNeverShowsValue(t *testing.T) {
	s := New(secret, WalletSecret, UserPII)
	for name, emit := range leaks(s) {
		t.Run(name, func(t *testing.T) {
			got := emit()
			if bytes.Contains(got, []byte(secret)) || bytes.Contains(got, []byte(fmt.Sprintf("%x", secret))) {
				t.Fatalf("output shows the value: %s", got)
			}
			if len(got) == 0 {
				t.Fatalf("no output")
			}
		})
	}
}

func TestRedactedForm(t *testing.T) {
	s := New(secret, WalletSecret, UserPII)
	const want = "[redacted:wallet-secret,user-pii]"
	tests := []struct{ name, got, want string }{
		{"Sprintf %v", fmt.Sprintf("%v", s), want},
		{"Sprintf %x", fmt.Sprintf("%x", s), want},
		{"Sprintf %T", fmt.Sprintf("%T", s), "*taint.String"},
		{"json", string(must(json.Marshal(s))), `"` + want + `"`},
		{"nil", fmt.Sprint((*String)(nil)), "[redacted:none]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

func TestDecodeRefused(t *testing.T) {
	tests := []struct {
		name string
		run  func() error
	}{
		{"json field", func() error {
			var h struct{ Key *String }
			return json.Unmarshal([]byte(`{"Key":"attacker-chosen"}`), &h)
		}},
		{"json top level", func() error {
			var s String
			return json.Unmarshal([]byte(`"attacker-chosen"`), &s)
		}},
		{"text", func() error {
			var s String
			return s.UnmarshalText([]byte("attacker-chosen"))
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := tt.run(); !errors.Is(err, ErrDecode) {
				t.Errorf("err = %v, want ErrDecode", err)
			}
		})
	}
}

func TestConcatAndFormatKeepLabels(t *testing.T) {
	a := New("wallet:", StrategyConfidential)
	b := New("0xabc", UserPII)
	tests := []struct {
		name      string
		s         *String
		wantValue string
	}{
		{"Concat", Concat(a, b), "wallet:0xabc"},
		{"Format", Format("%s|%q|%5.2s|%d", a, b, a, 7), `wallet:|"0xabc"|   wa|7`},
		{"Format nested Concat", Format("<%v>", Concat(b, a)), "<0xabcwallet:>"},
	}
	wantLabels := Labels(0).With(StrategyConfidential, UserPII)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.s.Labels(); got != wantLabels {
				t.Errorf("Labels = %s, want %s", got, wantLabels)
			}
			if _, err := tt.s.Reveal(Relay); !errors.Is(err, ErrForbidden) {
				t.Errorf("Reveal(relay) err = %v, want ErrForbidden", err)
			}
			got, err := tt.s.Reveal(LLMContext)
			if err != nil || got != tt.wantValue {
				t.Errorf("Reveal(llm-context) = %q, %v; want %q", got, err, tt.wantValue)
			}
		})
	}
	t.Run("plain args are plain", func(t *testing.T) {
		s := Format("%s-%d", "x", 1)
		if got, err := s.Reveal(Relay); err != nil || got != "x-1" || s.Labels() != 0 {
			t.Errorf("Reveal = %q, %v, labels %s; want x-1, nil, none", got, err, s.Labels())
		}
	})
	t.Run("released part releases result", func(t *testing.T) {
		r := New("gone", OwnerSecret)
		r.Release()
		for name, s := range map[string]*String{
			"Concat": Concat(a, r), "Format": Format("%s%s", a, r), "Concat nil": Concat(a, nil),
		} {
			if _, err := s.Reveal(LLMContext); !errors.Is(err, ErrReleased) {
				t.Errorf("%s: Reveal err = %v, want ErrReleased", name, err)
			}
		}
		if got := Concat(a, r).Labels(); !got.Has(OwnerSecret) {
			t.Errorf("Concat labels %s lack the released part's owner-secret", got)
		}
	})
}

func TestRelease(t *testing.T) {
	buf := []byte(secret)
	s := FromBytes(buf, OwnerSecret)
	var inUse []byte
	if err := s.Use(func(b []byte) error { inUse = b; return nil }); err != nil {
		t.Fatalf("Use: %v", err)
	}
	if &inUse[0] != &buf[0] {
		t.Fatalf("Use lent a copy; FromBytes must take ownership")
	}
	s.Release()
	s.Release()
	if !bytes.Equal(buf, make([]byte, len(secret))) {
		t.Errorf("bytes after Release = %q, want all zero", buf)
	}
	if got := s.Len(); got != 0 {
		t.Errorf("Len = %d, want 0", got)
	}
	if got := s.Labels(); got != Labels(0).With(OwnerSecret) {
		t.Errorf("Labels after Release = %s, want owner-secret", got)
	}
	for _, sink := range allSinks {
		if _, err := s.Reveal(sink); !errors.Is(err, ErrReleased) {
			t.Errorf("Reveal(%s) err = %v, want ErrReleased", sink, err)
		}
	}
	called := false
	if err := s.Use(func([]byte) error { called = true; return nil }); !errors.Is(err, ErrReleased) || called {
		t.Errorf("Use err = %v, called = %v; want ErrReleased, not called", err, called)
	}
}

func TestZeroAndNilAreReleased(t *testing.T) {
	var zero String
	for name, s := range map[string]*String{"nil": nil, "zero": &zero} {
		t.Run(name, func(t *testing.T) {
			if _, err := s.Reveal(EventStream); !errors.Is(err, ErrReleased) {
				t.Errorf("Reveal err = %v, want ErrReleased", err)
			}
			if err := s.Use(func([]byte) error { return nil }); !errors.Is(err, ErrReleased) {
				t.Errorf("Use err = %v, want ErrReleased", err)
			}
			s.Release()
			if s.Len() != 0 || s.Labels() != 0 {
				t.Errorf("Len, Labels = %d, %s; want 0, none", s.Len(), s.Labels())
			}
		})
	}
}

func TestUseReturnsCallbackError(t *testing.T) {
	errSign := errors.New("sign failed")
	s := New(secret, WalletSecret)
	var got string
	err := s.Use(func(b []byte) error { got = string(b); return errSign })
	if !errors.Is(err, errSign) || got != secret {
		t.Errorf("Use = %v, saw %q; want errSign and the value", err, got)
	}
}

func TestConcurrentRevealRelease(t *testing.T) {
	for range 50 {
		buf := []byte(secret)
		s := FromBytes(buf, StrategyConfidential)
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Go(func() {
				for range 20 {
					switch i % 4 {
					case 0:
						s.Release()
					case 1:
						if v, err := s.Reveal(LLMContext); err == nil && v != secret {
							t.Errorf("Reveal = %q: saw a partly zeroed value", v)
						} else if err != nil && !errors.Is(err, ErrReleased) {
							t.Errorf("Reveal err = %v", err)
						}
					case 2:
						_ = s.Use(func(b []byte) error {
							if string(b) != secret {
								t.Errorf("Use saw %q", b)
							}
							return nil
						})
					default:
						_ = fmt.Sprint(s, s.Len(), s.Labels())
						_ = Concat(s, s)
					}
				}
			})
		}
		wg.Wait()
		if !bytes.Equal(buf, make([]byte, len(secret))) {
			t.Fatalf("bytes not zeroed after concurrent Release")
		}
	}
}

func FuzzRevealAndRedact(f *testing.F) {
	f.Add([]byte(secret), uint8(0), uint8(0))
	f.Add([]byte("owner-token-1234"), uint8(1<<OwnerSecret), uint8(Relay))
	f.Add([]byte("pii@example.com"), uint8(1<<UserPII|1<<UntrustedExternal), uint8(Logs))
	f.Add([]byte("abcd"), uint8(0xff), uint8(7))
	f.Fuzz(func(t *testing.T, value []byte, set uint8, sinkByte uint8) {
		labels := labelsOf(set & (1<<numLabels - 1))
		if set&0x80 != 0 {
			labels = append(labels, Label(set))
		}
		sink := Sink(sinkByte % (uint8(numSinks) + 1))
		s := New(string(value), labels...)
		got, err := s.Reveal(sink)
		if want := wantAllowed(Labels(0).With(labels...), sink); want != (err == nil) {
			t.Fatalf("Reveal(%s) with %s: err = %v, want allowed = %v", sink, s.Labels(), err, want)
		}
		if err == nil && got != string(value) {
			t.Fatalf("Reveal = %q, want %q", got, value)
		}
		if len(value) < 4 {
			return
		}
		// Every redacted output must be independent of the value: another
		// value with the same labels formats identically.
		other := New(strings.Repeat("\x00", len(value)), labels...)
		outputs := func(s *String) [][]byte {
			return [][]byte{
				fmt.Appendf(nil, "%v %+v %#v %s %q %x %X %d %10.2s", s, s, s, s, s, s, s, s, s),
				must(json.Marshal(&holder{Key: s})),
				[]byte(fmt.Errorf("w: %w", fmt.Errorf("%v", s)).Error()),
			}
		}
		for i, o := range outputs(other) {
			if got := outputs(s)[i]; !bytes.Equal(got, o) {
				t.Fatalf("output %q depends on the value (other value gives %q)", got, o)
			}
		}
	})
}
