package sqlite

import "github.com/ncruces/go-sqlite3"

// binder binds a prepared statement's parameters, skipping a value the
// parameter already holds: SQLite keeps bindings from one execution to the
// next, and decisions repeat most of their columns (the same tool, policy,
// rule lists, origin, NULLs), so most bind calls, each a call into SQLite
// that releases the old value, are skipped for the price of a comparison.
// Only the writer goroutine uses it.
type binder struct {
	st   *sqlite3.Stmt
	last []bound // what each parameter holds, by index-1
	err  error   // the first failed bind since the last take
}

type bound struct {
	kind uint8 // unbound, boundNull, boundInt or boundText
	i    int64
	s    string
}

const (
	unbound uint8 = iota
	boundNull
	boundInt
	boundText
)

func newBinder(st *sqlite3.Stmt) *binder {
	return &binder{st: st, last: make([]bound, st.BindCount())}
}

func (b *binder) set(i int, v bound, err error) {
	if err != nil {
		v = bound{}
		if b.err == nil {
			b.err = err
		}
	}
	b.last[i-1] = v
}

func (b *binder) null(i int) {
	if b.last[i-1].kind != boundNull {
		b.set(i, bound{kind: boundNull}, b.st.BindNull(i))
	}
}

func (b *binder) int(i int, v int64) {
	if nv := (bound{kind: boundInt, i: v}); b.last[i-1] != nv {
		b.set(i, nv, b.st.BindInt64(i, v))
	}
}

func (b *binder) text(i int, v string) {
	if nv := (bound{kind: boundText, s: v}); b.last[i-1] != nv {
		b.set(i, nv, b.st.BindText(i, v))
	}
}

// optional binds "" as NULL: nullable columns hold NULL for "not set", and
// binding NULL costs no allocation inside SQLite.
func (b *binder) optional(i int, v string) {
	if v == "" {
		b.null(i)
	} else {
		b.text(i, v)
	}
}

// ref binds an interned id, 0 (no string) as NULL.
func (b *binder) ref(i int, id int64) {
	if id == 0 {
		b.null(i)
	} else {
		b.int(i, id)
	}
}

// blob binds v, which is never compared.
func (b *binder) blob(i int, v []byte) { b.set(i, bound{}, b.st.BindBlob(i, v)) }

// takeErr returns and clears the first failed bind.
func (b *binder) takeErr() error {
	err := b.err
	b.err = nil
	return err
}
