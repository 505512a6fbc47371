package config

import (
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"

	"github.com/wardhq/ward/internal/policy/rules"
)

// positions maps dotted key paths ("policy.rules.0.when", array elements by
// index) to where their value starts in the file.
type positions struct {
	at_  map[string]pos
	data []byte
}

type pos struct {
	line, col int
	quote     byte // the value's opening quote for single-line strings
	multiline bool // a multi-line string
}

func indexPositions(data []byte) *positions {
	idx := &positions{at_: map[string]pos{}, data: data}
	var p unstable.Parser
	p.Reset(data)
	var table []string
	arrays := map[string]int{} // array-table path → elements seen
	canon := func(parts []string) []string {
		// A table header below an array table refers to its last element.
		var out []string
		for _, part := range parts {
			out = append(out, part)
			if n, ok := arrays[strings.Join(out, ".")]; ok && n > 0 {
				out = append(out, strconv.Itoa(n-1))
			}
		}
		return out
	}
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table:
			table = canon(keyParts(e))
			idx.record(&p, strings.Join(table, "."), e, nil)
		case unstable.ArrayTable:
			kp := keyParts(e)
			parts := append(canon(kp[:len(kp)-1]), kp[len(kp)-1])
			k := strings.Join(parts, ".")
			n := arrays[k]
			arrays[k] = n + 1
			table = append(parts, strconv.Itoa(n))
			idx.record(&p, strings.Join(table, "."), e, nil)
		case unstable.KeyValue:
			full := append(append([]string{}, table...), keyParts(e)...)
			idx.value(&p, full, e, e.Value())
		}
	}
	return idx
}

func keyParts(n *unstable.Node) []string {
	var parts []string
	it := n.Key()
	for it.Next() {
		parts = append(parts, string(it.Node().Data))
	}
	return parts
}

// record notes where key's value starts: at v if the parser gave it a
// range, else at the fallback node (the key), else at the previous entry.
func (idx *positions) record(p *unstable.Parser, key string, fallback *unstable.Node, v *unstable.Node) {
	target := v
	if target == nil || target.Raw.Length == 0 {
		target = fallback
		if target != nil && target.Raw.Length == 0 && (target.Kind == unstable.KeyValue || target.Kind == unstable.Table || target.Kind == unstable.ArrayTable) {
			if it := target.Key(); it.Next() {
				target = it.Node()
			}
		}
	}
	if target == nil || target.Raw.Length == 0 {
		return
	}
	sh := p.Shape(target.Raw)
	ps := pos{line: sh.Start.Line, col: sh.Start.Column}
	if v != nil && v.Kind == unstable.String && v.Raw.Length > 0 && int(v.Raw.Offset) < len(idx.data) {
		raw := idx.data[v.Raw.Offset:]
		switch {
		case len(raw) >= 3 && (string(raw[:3]) == `"""` || string(raw[:3]) == "'''"):
			ps.multiline = true
		case len(raw) > 0 && (raw[0] == '"' || raw[0] == '\''):
			ps.quote = raw[0]
		}
	}
	if _, dup := idx.at_[key]; !dup {
		idx.at_[key] = ps
	}
}

func (idx *positions) value(p *unstable.Parser, parts []string, kv, v *unstable.Node) {
	key := strings.Join(parts, ".")
	idx.record(p, key, kv, v)
	switch v.Kind {
	case unstable.InlineTable:
		it := v.Children()
		for it.Next() {
			kv := it.Node()
			idx.value(p, append(append([]string{}, parts...), keyParts(kv)...), kv, kv.Value())
		}
	case unstable.Array:
		it := v.Children()
		kv := kv
		for i := 0; it.Next(); i++ {
			idx.value(p, append(append([]string{}, parts...), strconv.Itoa(i)), kv, it.Node())
		}
	}
}

// find returns the position of the longest known prefix of key.
func (idx *positions) find(key string) (pos, bool) {
	for k := key; k != ""; {
		if ps, ok := idx.at_[k]; ok {
			return ps, true
		}
		i := strings.LastIndexByte(k, '.')
		if i < 0 {
			break
		}
		k = k[:i]
	}
	return pos{}, false
}

func (idx *positions) at(key, msg string) Diagnostic {
	ps, _ := idx.find(key)
	return Diagnostic{Line: ps.line, Col: ps.col, Key: key, Msg: msg}
}

// locate turns policy errors into diagnostics with positions, translating
// merged list indexes back to the file's and CEL positions into the file.
func (idx *positions) locate(es rules.Errors, m *merger) []Diagnostic {
	out := make([]Diagnostic, 0, len(es))
	for _, e := range es {
		key := "policy." + fileKey(e.Path, m)
		ps, found := idx.find(key)
		d := Diagnostic{Line: ps.line, Col: ps.col, Key: key, Msg: e.Msg}
		if e.Line > 0 && found {
			switch {
			case ps.quote != 0 && e.Line == 1:
				d.Col = ps.col + e.Col // skip the opening quote
			case ps.multiline:
				d.Line = ps.line + e.Line
				d.Col = e.Col
			default:
				d.Msg = "expression " + strconv.Itoa(e.Line) + ":" + strconv.Itoa(e.Col) + ": " + e.Msg
			}
		}
		out = append(out, d)
	}
	return out
}

func fileKey(path string, m *merger) string {
	parts := strings.Split(path, ".")
	if len(parts) >= 2 {
		if n, err := strconv.Atoi(parts[1]); err == nil {
			if fi, ok := m.fileIndex(parts[0], n); ok {
				parts[1] = strconv.Itoa(fi)
			}
		}
	}
	return strings.Join(parts, ".")
}
