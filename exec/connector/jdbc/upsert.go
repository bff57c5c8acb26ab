package jdbc

import (
	"context"
	"math"
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/windowop"
)

// upsert is the mode of a table with a PRIMARY KEY: +I and +U replace
// the key's row, -D deletes it, -U is skipped (the +U after it replaces
// the row), as Flink's upsert sinks do. A flush applies each key's last
// change in one statement: INSERT ... ON CONFLICT ... DO UPDATE, with the
// deletions in a DELETE of the same statement, over the changes in order.
//
// The changes reach the statement as one PostgreSQL array a column
// (unnest($1::type[], ...) WITH ORDINALITY), encoded column at a time as
// they come, and one round trip applies them. A table with an ARRAY
// column cannot be unnested so (unnest flattens an array of arrays): its
// changes are copied into a temporary staging table first, each with its
// sequence number, and the statement reads the stage.
type upsert struct {
	staged bool
	// merge applies the changes; insert applies changes without a
	// deletion, with no DELETE to plan and run (a fifth of the time a
	// flush of window results takes in the server)
	merge, insert string
	deletes       bool // a change buffered is a deletion
	// unnested: each column's array (its 20-byte header left to fill)
	// and whether it has a NULL; the last column is the deletion flag
	arrays  [][]byte
	hasNull []bool
	params  [][]byte
	formats []int16
	seq     int64 // staged: of the next change
}

// stage is the staging table, one a connection; upsertStmt the prepared
// statement.
const (
	stage      = "wsql_stage"
	upsertStmt = "wsql_upsert"
	insertStmt = "wsql_upsert_insert"
	arrayHead  = 20 // ndim, flags, element oid, length, lower bound
)

func newUpsert(s *tableSink) *upsert {
	u := &upsert{}
	for _, c := range s.phys {
		if _, ok := s.table.Columns[c].Type.(*arrow.ListType); ok {
			u.staged = true
		}
	}
	if !u.staged {
		n := len(s.phys) + 1
		u.arrays, u.hasNull = make([][]byte, n), make([]bool, n)
		u.params, u.formats = make([][]byte, n), make([]int16, n)
		for i := range u.arrays {
			u.arrays[i] = make([]byte, arrayHead, 1<<12)
			u.formats[i] = 1 // binary
		}
	}
	return u
}

func (u *upsert) row(w *sinkWriter, kind windowop.RowKind, cols []arrow.Array, i int) bool {
	if kind == windowop.UpdateBefore {
		return false
	}
	del := byte(0)
	if kind == windowop.Delete {
		del, u.deletes = 1, true
	}
	if u.staged {
		w.appendRow(cols, i, 2)
		b := be.AppendUint32(w.buf, 8)
		b = be.AppendUint64(b, uint64(u.seq))
		b = be.AppendUint32(b, 1)
		w.buf = append(b, del)
		u.seq++
		if u.seq == math.MaxInt64 {
			u.seq = 0
		}
		return true
	}
	for c, col := range cols {
		if col.IsNull(i) {
			u.hasNull[c] = true
		}
		u.arrays[c] = appendField(u.arrays[c], w.s.enc[c], col, i)
	}
	last := len(u.arrays) - 1
	u.arrays[last] = append(be.AppendUint32(u.arrays[last], 1), del)
	return true
}

func (u *upsert) reset() {
	u.deletes = false
	for i := range u.arrays {
		u.arrays[i], u.hasNull[i] = u.arrays[i][:arrayHead], false
	}
}

// setup prepares the statement on a new connection (and makes its
// staging table) and checks it: the PostgreSQL table must have a unique
// constraint on the key.
func (u *upsert) setup(ctx context.Context, w *sinkWriter) error {
	s := w.s
	keys := s.keyColumns()
	k := strings.Join(keys, ", ")
	var source string
	if u.staged {
		var cols []string
		for i, c := range s.pgCols {
			cols = append(cols, c+" "+s.pgType[i])
		}
		ddl := "CREATE TEMPORARY TABLE " + stage + " (" + strings.Join(cols, ", ") + ", wsql_seq int8, wsql_del bool)"
		if err := w.exec(ctx, ddl); err != nil {
			return s.wrap("making the staging table", err)
		}
		source = stage
	} else {
		var arrays []string
		for i, t := range s.pgType {
			arrays = append(arrays, "$"+strconv.Itoa(i+1)+"::"+t+"[]")
		}
		arrays = append(arrays, "$"+strconv.Itoa(len(s.pgType)+1)+"::bool[]")
		source = "unnest(" + strings.Join(arrays, ", ") + ") WITH ORDINALITY AS u(" + s.columnList() + ", wsql_del, wsql_seq)"
	}
	var match, set []string
	for _, key := range keys {
		match = append(match, "wsql_t."+key+" = last."+key)
	}
	for _, c := range s.pgCols {
		if !contains(keys, c) {
			set = append(set, c+" = EXCLUDED."+c)
		}
	}
	onConflict := "DO NOTHING"
	if len(set) > 0 {
		onConflict = "DO UPDATE SET " + strings.Join(set, ", ")
	}
	last := "SELECT DISTINCT ON (" + k + ") * FROM " + source + " ORDER BY " + k + ", wsql_seq DESC"
	into := "INSERT INTO " + s.cfg.table + " (" + s.columnList() + ") SELECT " + s.columnList()
	conflict := " ON CONFLICT (" + k + ") " + onConflict
	u.merge = "WITH last AS (" + last + "), " +
		"deleted AS (DELETE FROM " + s.cfg.table + " wsql_t USING last WHERE last.wsql_del AND " + strings.Join(match, " AND ") + ") " +
		into + " FROM last WHERE NOT last.wsql_del" + conflict
	u.insert = into + " FROM (" + last + ") last" + conflict
	var err error
	if u.staged {
		err = w.exec(ctx, "EXPLAIN "+u.merge)
	} else {
		// preparing does not plan: EXPLAIN does, and finds a missing
		// constraint
		if _, err = w.conn.Prepare(ctx, upsertStmt, u.merge, nil); err == nil {
			nulls := strings.Repeat("NULL, ", len(u.arrays)-1) + "NULL"
			err = w.exec(ctx, "EXPLAIN EXECUTE "+upsertStmt+"("+nulls+")")
		}
		if err == nil {
			_, err = w.conn.Prepare(ctx, insertStmt, u.insert, nil)
		}
	}
	if err != nil {
		if strings.Contains(err.Error(), "no unique or exclusion constraint") {
			return s.wrap("upserting", errorf("the PostgreSQL table needs a PRIMARY KEY or UNIQUE constraint on (%s), the table's PRIMARY KEY", k))
		}
		return s.wrap("upserting", err)
	}
	return nil
}

func (u *upsert) flush(ctx context.Context, w *sinkWriter) error {
	if u.staged {
		if err := w.copyIn(ctx, "COPY "+stage+" FROM STDIN (FORMAT binary)"); err != nil {
			return err
		}
		stmt := u.insert
		if u.deletes {
			stmt = u.merge
		}
		return w.exec(ctx, stmt+"; TRUNCATE "+stage)
	}
	for c, a := range u.arrays {
		oid := uint32(oidBool)
		if c < len(w.s.pgOID) {
			oid = w.s.pgOID[c]
		}
		flags := uint32(0)
		if u.hasNull[c] {
			flags = 1
		}
		be.PutUint32(a[0:], 1)
		be.PutUint32(a[4:], flags)
		be.PutUint32(a[8:], oid)
		be.PutUint32(a[12:], uint32(w.rows))
		be.PutUint32(a[16:], 1)
		u.params[c] = a
	}
	stmt := insertStmt
	if u.deletes {
		stmt = upsertStmt
	}
	_, err := w.conn.ExecPrepared(ctx, stmt, u.params, u.formats, nil).Close()
	return err
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
