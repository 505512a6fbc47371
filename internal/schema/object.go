package schema

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Property is one named property of the object Object builds.
type Property struct {
	Name string
	// Schema is the property's schema, a document of its own; empty
	// allows any value.
	Schema   json.RawMessage
	Required bool
}

// Object returns the schema {"type": "object", "properties": {...},
// "required": [...]} of an object with the given properties, for callers
// that hold one schema per parameter (an exported benchmark suite, a
// function's signature) rather than one for the whole object.
//
// Each property's schema is read as a document of its own, so its local
// references ("#", "#/$defs/X") are rewritten to point at the same place
// inside the object ("#/properties/NAME", "#/properties/NAME/$defs/X"),
// where they mean what they meant alone. A property schema this package
// cannot decode is copied unchanged: Compile then says what is wrong with
// it. Object fails only for a property schema that is not JSON and for a
// name given twice.
func Object(props []Property) (json.RawMessage, error) {
	out := struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}{Type: "object", Properties: map[string]json.RawMessage{}, Required: []string{}}
	for _, p := range props {
		if _, dup := out.Properties[p.Name]; dup {
			return nil, fmt.Errorf("schema: property %q given twice", trunc(p.Name, 64))
		}
		raw := p.Schema
		if len(raw) == 0 {
			raw = json.RawMessage(`{}`)
		}
		if !json.Valid(raw) {
			return nil, fmt.Errorf("schema: property %q: the schema is not JSON", trunc(p.Name, 64))
		}
		out.Properties[p.Name] = embed(raw, "/properties/"+escapePointer(p.Name))
		if p.Required {
			out.Required = append(out.Required, p.Name)
		}
	}
	return json.Marshal(out)
}

// embed returns the schema raw with its local JSON Pointer references
// prefixed by at, the place it is embedded at; raw itself when it has no
// reference or cannot be decoded.
func embed(raw json.RawMessage, at string) json.RawMessage {
	if !strings.Contains(string(raw), `"$ref"`) {
		return raw
	}
	n := new(jsonschema.Schema)
	if err := json.Unmarshal(raw, n); err != nil {
		return raw
	}
	var rewrite func(n *jsonschema.Schema, depth int)
	rewrite = func(n *jsonschema.Schema, depth int) {
		if depth > MaxDepth {
			return
		}
		if n.Ref == "#" || strings.HasPrefix(n.Ref, "#/") {
			n.Ref = "#" + pathEscape(at) + n.Ref[1:]
		}
		for _, c := range children(n) {
			rewrite(c.s, depth+1)
		}
	}
	rewrite(n, 0)
	b, err := json.Marshal(n)
	if err != nil {
		return raw
	}
	return b
}

// escapePointer escapes one JSON Pointer segment (RFC 6901).
func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// pathEscape percent-encodes a JSON Pointer for a URI fragment, keeping
// its '/' separators.
func pathEscape(p string) string {
	segs := strings.Split(p, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}
