package shell

import (
	"strconv"
	"strings"
)

// SQL given to a database client on its command line or standard input is
// read statement by statement (quotes and comments respected): DROP TABLE,
// DATABASE or SCHEMA is SQLDrop; TRUNCATE, and DELETE or UPDATE without a
// WHERE clause or with one that is always true (1=1, TRUE, x = x, 'a'='a',
// x LIKE '%', any of them in an OR) are SQLDestroy. The client's shell
// escapes (psql and mysql \!, mysql system, sqlite3 .shell and .system)
// are analysed as commands. SQL the command line cannot show (a file, a
// pipe from an unknown command) is not seen.

// sqlClient analyses the SQL a database client is given.
func (a *analyzer) sqlClient(x *call, name string, args []Word) error {
	var sqls []string
	switch name {
	case "sqlite3", "sqlite", "duckdb":
		// sqlite3 [OPTIONS] FILENAME [SQL]...; options are single-dash words.
		db := false
		for i := 1; i < len(args); i++ {
			v := args[i].Value
			if len(v) > 1 && v[0] == '-' {
				switch strings.TrimLeft(v, "-") {
				case "cmd", "c", "s":
					if i+1 < len(args) {
						sqls = append(sqls, args[i+1].Value)
					}
					i++
				case "init", "separator", "newline", "nullvalue", "vfs", "maxsize", "mmap", "A", "f", "lookaside", "pagecache", "heap":
					i++
				}
				continue
			}
			if db {
				sqls = append(sqls, v)
			}
			db = true
		}
	case "psql":
		sqls = optValues(args, 'c', "--command", sqls)
	case "mysql", "mariadb", "cockroach":
		sqls = optValues(args, 'e', "--execute", sqls)
	case "clickhouse-client":
		sqls = optValues(args, 'q', "--query", sqls)
	case "sqlcmd":
		sqls = optValues(args, 'Q', "", sqls)
		sqls = optValues(args, 'q', "", sqls)
	}
	if in, ok := a.stdin(x); ok {
		sqls = append(sqls, in)
	}
	for _, s := range sqls {
		if err := a.sql(s, x.s.depth+1); err != nil {
			return err
		}
	}
	return nil
}

// optValues appends to dst the values of every -s VALUE, -sVALUE,
// --long=VALUE and --long VALUE in args.
func optValues(args []Word, short byte, long string, dst []string) []string {
	for i := 1; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "--":
			return dst
		case long != "" && v == long || len(v) == 2 && v[0] == '-' && v[1] == short:
			if i+1 < len(args) {
				dst = append(dst, args[i+1].Value)
				i++
			}
		case long != "" && strings.HasPrefix(v, long+"="):
			dst = append(dst, v[len(long)+1:])
		case len(v) > 2 && v[0] == '-' && v[1] == short:
			dst = append(dst, v[2:])
		}
	}
	return dst
}

// sql analyses SQL text: its statements and its clients' shell escapes.
func (a *analyzer) sql(src string, depth int) error {
	if err := a.st.charge(len(src)); err != nil {
		return err
	}
	for line := range strings.Lines(src) {
		l := strings.TrimSpace(line)
		cmd, ok := "", false
		for _, esc := range [...]string{`\!`, "system", ".shell", ".system"} {
			if c, found := strings.CutPrefix(l, esc); found && (esc == `\!` || c != "" && isIFS(c[0])) {
				cmd, ok = c, true
				break
			}
		}
		if ok {
			if err := a.data(cmd, depth); err != nil {
				return err
			}
		}
	}
	for _, stmt := range statements(src) {
		a.statement(stmt)
	}
	return nil
}

// token is a lexical token of SQL: a word (keyword or identifier, kept as
// written), a number, a string literal (its value, quoted marks it), a
// quoted identifier or one punctuation byte or comparison operator.
type token struct {
	text   string
	quoted bool // a 'string' literal
	num    bool
}

// statements splits SQL into statements of tokens, without comments.
func statements(src string) [][]token {
	var out [][]token
	var cur []token
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case isSpace(c):
			i++
		case c == '-' && strings.HasPrefix(src[i:], "--"), c == '#':
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				j = len(src) - i
			}
			i += j
		case c == '/' && strings.HasPrefix(src[i:], "/*"):
			j := strings.Index(src[i+2:], "*/")
			if j < 0 {
				i = len(src)
			} else {
				i += j + 4
			}
		case c == ';':
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur = nil
			i++
		case c == '\'' || c == '"' || c == '`' || c == '[':
			end := c
			if c == '[' {
				end = ']'
			}
			j := i + 1
			doubled := false
			for j < len(src) {
				if src[j] == end {
					if j+1 < len(src) && src[j+1] == end && end != ']' {
						doubled = true
						j += 2
						continue
					}
					break
				}
				j++
			}
			text := src[i+1 : min(j, len(src))]
			if doubled {
				text = strings.ReplaceAll(text, string([]byte{end, end}), string([]byte{end}))
			}
			cur = append(cur, token{text: text, quoted: c == '\''})
			i = min(j+1, len(src))
		case isWordByte(c) || c == '$' || c == '.':
			j := i
			for j < len(src) && (isWordByte(src[j]) || src[j] == '$' || src[j] == '.') {
				j++
			}
			w := src[i:j]
			cur = append(cur, token{text: w, num: isNumber(w)})
			i = j
		default:
			n := 1
			if i+1 < len(src) && strings.Contains("<>!=", src[i:i+1]) && strings.Contains("<>=", src[i+1:i+2]) {
				n = 2
			}
			cur = append(cur, token{text: src[i : i+n]})
			i += n
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// is reports a keyword, in any case.
func (t token) is(kw string) bool { return !t.quoted && strings.EqualFold(t.text, kw) }

// statement reports what one statement destroys.
func (a *analyzer) statement(toks []token) {
	i := verb(toks)
	if i < 0 {
		return
	}
	kw, rest := toks[i], toks[i+1:]
	switch {
	case kw.is("DROP"):
		for _, t := range rest[:min(len(rest), 2)] {
			switch {
			case t.is("TABLE"):
				a.add(SQLDrop, "DROP TABLE")
			case t.is("DATABASE"):
				a.add(SQLDrop, "DROP DATABASE")
			case t.is("SCHEMA"):
				a.add(SQLDrop, "DROP SCHEMA")
			}
		}
	case kw.is("TRUNCATE"):
		if len(rest) > 0 && rest[0].is("TABLE") {
			a.add(SQLDrop, "TRUNCATE TABLE")
		}
		a.add(SQLDestroy, "TRUNCATE")
	case kw.is("DELETE"):
		a.where(rest, "DELETE without WHERE", "DELETE WHERE always true")
	case kw.is("UPDATE"):
		if at(rest, "SET") >= 0 {
			a.where(rest, "UPDATE without WHERE", "UPDATE WHERE always true")
		}
	}
}

// verb returns the index of a statement's verb: its first word, or after
// WITH the first DML keyword outside the common table expressions (which
// are in parentheses); -1 if there is none.
func verb(toks []token) int {
	if !toks[0].is("WITH") {
		return 0
	}
	depth := 0
	for i, t := range toks {
		switch {
		case t.text == "(":
			depth++
		case t.text == ")":
			depth--
		case depth == 0 && (t.is("SELECT") || t.is("INSERT") || t.is("UPDATE") || t.is("DELETE") || t.is("MERGE")):
			return i
		}
	}
	return -1
}

// where reports a statement whose WHERE clause is missing or always true.
func (a *analyzer) where(toks []token, none, always string) {
	w := at(toks, "WHERE")
	if w < 0 {
		a.add(SQLDestroy, none)
		return
	}
	cond := toks[w+1:]
	for _, end := range [...]string{"ORDER", "LIMIT", "RETURNING", "OFFSET", "OUTPUT"} {
		if k := at(cond, end); k >= 0 {
			cond = cond[:k]
		}
	}
	if alwaysTrue(cond) {
		a.add(SQLDestroy, always)
	}
}

// at returns the index of the keyword kw outside parentheses, or -1.
func at(toks []token, kw string) int {
	depth := 0
	for i, t := range toks {
		switch {
		case t.text == "(" && !t.quoted:
			depth++
		case t.text == ")" && !t.quoted:
			depth--
		case depth == 0 && t.is(kw):
			return i
		}
	}
	return -1
}

// split splits toks at the keyword kw outside parentheses.
func split(toks []token, kw string) [][]token {
	var out [][]token
	for {
		i := at(toks, kw)
		if i < 0 {
			return append(out, toks)
		}
		out = append(out, toks[:i])
		toks = toks[i+1:]
	}
}

// alwaysTrue reports a condition that holds for every row: one of its
// OR-ed parts is a conjunction of conditions that always hold.
func alwaysTrue(cond []token) bool {
	for _, part := range split(cond, "OR") {
		all := len(part) > 0
		for _, c := range split(part, "AND") {
			all = all && atomTrue(c)
		}
		if all {
			return true
		}
	}
	return false
}

// atomTrue reports a condition without AND or OR that always holds.
func atomTrue(c []token) bool {
	if len(c) >= 2 && c[0].text == "(" && c[len(c)-1].text == ")" && !c[0].quoted && !c[len(c)-1].quoted {
		return alwaysTrue(c[1 : len(c)-1])
	}
	switch len(c) {
	case 1:
		return c[0].is("TRUE") || c[0].num && nonzero(c[0].text)
	case 2:
		return c[0].is("NOT") && (c[1].is("FALSE") || c[1].num && !nonzero(c[1].text))
	case 3:
		l, op, r := c[0], strings.ToUpper(c[1].text), c[2]
		if op == "LIKE" || op == "GLOB" || op == "ILIKE" {
			return r.quoted && strings.Trim(r.text, "%*") == "" && r.text != ""
		}
		if (l.num || l.quoted) && (r.num || r.quoted) {
			return compare(l, op, r)
		}
		same := l.text == r.text && l.quoted == r.quoted || !l.quoted && !r.quoted && strings.EqualFold(l.text, r.text)
		return same && (op == "=" || op == "==" || op == "<=" || op == ">=" || op == "IS")
	}
	return false
}

// isNumber reports a numeric literal: digits with at most one dot.
func isNumber(w string) bool {
	digits, dots := 0, 0
	for i := 0; i < len(w); i++ {
		switch {
		case isDigit(w[i]):
			digits++
		case w[i] == '.':
			dots++
		default:
			return false
		}
	}
	return digits > 0 && dots <= 1
}

func nonzero(s string) bool {
	f, err := strconv.ParseFloat(s, 64)
	return err == nil && f != 0
}

// compare evaluates a comparison of two literals.
func compare(l token, op string, r token) bool {
	var c int
	if l.num && r.num {
		x, _ := strconv.ParseFloat(l.text, 64)
		y, _ := strconv.ParseFloat(r.text, 64)
		switch {
		case x < y:
			c = -1
		case x > y:
			c = 1
		}
	} else {
		c = strings.Compare(l.text, r.text)
	}
	switch op {
	case "=", "==", "IS":
		return c == 0
	case "!=", "<>":
		return c != 0
	case "<":
		return c < 0
	case ">":
		return c > 0
	case "<=":
		return c <= 0
	case ">=":
		return c >= 0
	}
	return false
}
