package published

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestEveryArtifactLinks loads every embedded artifact and links it
// against made-up library addresses: each library it names is itself
// embedded, every placeholder is covered, and the ABI is JSON.
func TestEveryArtifactLinks(t *testing.T) {
	names := embedded()
	if len(names) == 0 {
		t.Fatal("no published artifacts embedded")
	}
	libs := map[string][20]byte{}
	for i, n := range names {
		libs[n] = [20]byte{19: byte(i + 1)}
	}
	for _, n := range names {
		t.Run(n, func(t *testing.T) {
			a, err := Load(n)
			if err != nil {
				t.Fatal(err)
			}
			if a.Source == "" {
				t.Error("no source recorded")
			}
			if !json.Valid(a.ABI) {
				t.Error("ABI is not JSON")
			}
			if rt, ok := a.Runtime(); ok {
				if len(rt) == 0 || len(rt) > 24576 {
					t.Errorf("runtime code of %d bytes, want 1 to EIP-170's 24576", len(rt))
				}
				if _, err := a.Link(libs); !errors.Is(err, ErrRuntimeOnly) {
					t.Errorf("Link of a runtime-only artifact: %v, want ErrRuntimeOnly", err)
				}
				return
			}
			code, err := a.Link(libs)
			if err != nil {
				t.Fatal(err)
			}
			if len(code) == 0 {
				t.Error("empty creation code")
			}
			for _, l := range a.Links {
				if _, err := Load(l.Library); err != nil {
					t.Errorf("library %s: %v", l.Library, err)
				}
			}
		})
	}
}

func TestLinkRefusesMissingLibrary(t *testing.T) {
	a, err := Load("Pool")
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Links) == 0 {
		t.Fatal("Aave's Pool links no library")
	}
	if _, err := a.Link(nil); err == nil {
		t.Error("Link(nil) of a contract with libraries succeeded")
	}
}

func TestLoadUnknown(t *testing.T) {
	for _, name := range []string{"NoSuchContract", "../published", "a/b", ""} {
		if _, err := Load(name); !errors.Is(err, ErrNotFound) {
			t.Errorf("Load(%q) = %v, want ErrNotFound", name, err)
		}
	}
}

// embedded returns the names of all embedded contracts, sorted.
func embedded() []string {
	entries, err := files.ReadDir(".")
	if err != nil {
		return nil // the embedded root always exists
	}
	var names []string
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".json"); ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return names
}
