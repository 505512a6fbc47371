package sqlite

import (
	"errors"
	"fmt"

	"github.com/ncruces/go-sqlite3"
)

// maxCachedIDs bounds the strings a dict keeps in memory.
var maxCachedIDs = 1 << 16

// dict interns strings into a table of (id INTEGER PRIMARY KEY, unique
// text): decision_dict's values and policy_snapshots' hashes. Only the
// writer goroutine uses it, inside its transactions.
//
// ids holds the strings the writer has seen committed, loaded at Open. A
// string it lacks is looked up in the table (another process may have
// interned it) and else inserted in the current transaction, which is
// what makes a row and the strings it names commit together. Forgetting an
// entry is always safe, so when a transaction fails the entries it added
// are forgotten.
type dict struct {
	ids   map[string]int64
	added []string // interned by the open transaction

	find, insert *sqlite3.Stmt // SELECT id ... WHERE text = ?; INSERT ... RETURNING id
}

// newDict loads table's (id, col) pairs and prepares its statements.
func newDict(conn *sqlite3.Conn, table, col string) (*dict, error) {
	d := &dict{ids: make(map[string]int64)}
	st, _, err := conn.Prepare(`SELECT id, ` + col + ` FROM ` + table)
	if err != nil {
		return nil, fmt.Errorf("sqlite: load %s: %w", table, err)
	}
	for st.Step() {
		d.ids[st.ColumnText(1)] = st.ColumnInt64(0)
	}
	if err := errors.Join(st.Err(), st.Close()); err != nil {
		return nil, fmt.Errorf("sqlite: load %s: %w", table, err)
	}
	prep := func(sql string) *sqlite3.Stmt {
		if err != nil {
			return nil
		}
		var st *sqlite3.Stmt
		if st, _, err = conn.PrepareFlags(sql, sqlite3.PREPARE_PERSISTENT); err != nil {
			err = fmt.Errorf("sqlite: prepare %.50q: %w", sql, err)
		}
		return st
	}
	d.find = prep(`SELECT id FROM ` + table + ` WHERE ` + col + ` = ?`)
	d.insert = prep(`INSERT INTO ` + table + ` (` + col + `) VALUES (?) RETURNING id`)
	return d, err
}

// id returns s's id, interning s in the open transaction if it is new.
func (d *dict) id(s string) (int64, error) {
	if id, ok := d.ids[s]; ok {
		return id, nil
	}
	id, found, err := d.lookup(d.find, s)
	if err != nil {
		return 0, err
	}
	if !found {
		if id, found, err = d.lookup(d.insert, s); err != nil {
			return 0, err
		}
		if !found {
			return 0, fmt.Errorf("intern %.40q: no id returned", s)
		}
	}
	if len(d.ids) >= maxCachedIDs {
		// Callers choose some of these strings (tool names): past the cap,
		// a new string costs a lookup each time instead of memory.
		return id, nil
	}
	// Even a string found may have been inserted by this transaction (a
	// policy hash by RecordPolicy): it is not known committed before the
	// transaction is.
	d.added = append(d.added, s)
	d.ids[s] = id
	return id, nil
}

// lookup runs st with s and returns the id in its first row.
func (d *dict) lookup(st *sqlite3.Stmt, s string) (id int64, found bool, err error) {
	if err := st.BindText(1, s); err != nil {
		return 0, false, err
	}
	if st.Step() {
		id, found = st.ColumnInt64(0), true
	}
	// Reset reports the error of a failed Step.
	return id, found, st.Reset()
}

// optionalID is id, with "" stored as NULL (0 here: ids start at 1).
func (d *dict) optionalID(s string) (int64, error) {
	if s == "" {
		return 0, nil
	}
	return d.id(s)
}

// commit keeps what the transaction added; rollback forgets it.
func (d *dict) commit() { d.added = d.added[:0] }

func (d *dict) rollback() {
	for _, s := range d.added {
		delete(d.ids, s)
	}
	d.added = d.added[:0]
}
