package jdbc

import (
	"context"
	"math"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/windowop"
)

// upsert is the mode of a table with a PRIMARY KEY: +I and +U replace
// the key's row, -D deletes it, -U is skipped (the +U after it replaces
// the row), as Flink's upsert sinks do. A flush copies the buffered
// changes into a temporary staging table, each with its sequence number
// and whether it deletes, then applies each key's last change in one
// statement (INSERT ... ON CONFLICT ... DO UPDATE, with the deletions in
// a DELETE of the same statement) and empties the stage.
type upsert struct {
	seq   int64  // of the next change
	merge string // the statement that applies the stage
}

// stage is the staging table, one a connection.
const stage = "wsql_stage"

func (u *upsert) row(w *sinkWriter, kind windowop.RowKind, cols []arrow.Array, i int) bool {
	if kind == windowop.UpdateBefore {
		return false
	}
	w.appendRow(cols, i, 2)
	b := be.AppendUint32(w.buf, 8)
	b = be.AppendUint64(b, uint64(u.seq))
	b = be.AppendUint32(b, 1)
	if kind == windowop.Delete {
		b = append(b, 1)
	} else {
		b = append(b, 0)
	}
	w.buf = b
	u.seq++
	if u.seq == math.MaxInt64 {
		u.seq = 0
	}
	return true
}

// setup makes the connection's staging table and checks the statement
// that applies it: the PostgreSQL table must have a unique constraint on
// the key.
func (u *upsert) setup(ctx context.Context, w *sinkWriter) error {
	s := w.s
	var cols []string
	for i, c := range s.pgCols {
		cols = append(cols, c+" "+s.pgType[i])
	}
	ddl := "CREATE TEMPORARY TABLE " + stage + " (" + strings.Join(cols, ", ") + ", wsql_seq int8, wsql_del bool)"
	if err := w.exec(ctx, ddl); err != nil {
		return s.wrap("making the staging table", err)
	}
	keys := s.keyColumns()
	var match, set []string
	for _, k := range keys {
		match = append(match, "wsql_t."+k+" = last."+k)
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
	k := strings.Join(keys, ", ")
	u.merge = "WITH last AS (SELECT DISTINCT ON (" + k + ") * FROM " + stage + " ORDER BY " + k + ", wsql_seq DESC), " +
		"deleted AS (DELETE FROM " + s.cfg.table + " wsql_t USING last WHERE last.wsql_del AND " + strings.Join(match, " AND ") + ") " +
		"INSERT INTO " + s.cfg.table + " (" + s.columnList() + ") SELECT " + s.columnList() + " FROM last WHERE NOT last.wsql_del " +
		"ON CONFLICT (" + k + ") " + onConflict
	if err := w.exec(ctx, "EXPLAIN "+u.merge); err != nil {
		if strings.Contains(err.Error(), "no unique or exclusion constraint") {
			return s.wrap("upserting", errorf("the PostgreSQL table needs a PRIMARY KEY or UNIQUE constraint on (%s), the table's PRIMARY KEY", k))
		}
		return s.wrap("upserting", err)
	}
	return nil
}

func (u *upsert) flush(ctx context.Context, w *sinkWriter) error {
	if err := w.copyIn(ctx, "COPY "+stage+" FROM STDIN (FORMAT binary)"); err != nil {
		return err
	}
	return w.exec(ctx, u.merge+"; TRUNCATE "+stage)
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
