package pgcdc

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5"
)

// pgColumn is a column of the PostgreSQL table.
type pgColumn struct {
	name string
	oid  uint32
	typ  string // as format_type prints it
}

// tupleLayout says where each column of the source is in a row of the
// table as a relation message or the snapshot's query gives it.
type tupleLayout struct {
	id    uint32 // the relation's id in the stream
	index []int  // of each source column; -1 for a metadata column
}

// checkTable reads the table's columns from PostgreSQL's catalog and
// checks the declared ones against them, and its replica identity.
func (r *reader) checkTable(ctx context.Context) error {
	cfg := r.src.cfg
	var identity string
	err := r.conn.QueryRow(ctx, `SELECT c.relreplident::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = $1 AND c.relname = $2 AND c.relkind IN ('r', 'p')`, cfg.schema, cfg.table).Scan(&identity)
	if errors.Is(err, pgx.ErrNoRows) {
		return fmt.Errorf("there is no table %s in database %s", cfg.qualified(), cfg.conn.Database)
	}
	if err != nil {
		return fmt.Errorf("reading table %s: %w", cfg.qualified(), err)
	}
	rows, err := r.conn.Query(ctx, `SELECT a.attname, a.atttypid::int8, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a
		WHERE a.attrelid = (quote_ident($1) || '.' || quote_ident($2))::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`, cfg.schema, cfg.table)
	if err != nil {
		return fmt.Errorf("reading the columns of %s: %w", cfg.qualified(), err)
	}
	var cols []pgColumn
	for rows.Next() {
		var c pgColumn
		var oid int64
		if err := rows.Scan(&c.name, &oid, &c.typ); err != nil {
			return err
		}
		c.oid = uint32(oid)
		cols = append(cols, c)
	}
	if err := rows.Err(); err != nil {
		return err
	}
	for i, c := range r.src.columns {
		if c.meta != "" {
			continue
		}
		j := findColumn(c.name, func(k int) string { return cols[k].name }, len(cols))
		if j < 0 {
			return fmt.Errorf("column %s is not a column of PostgreSQL table %s", c.name, cfg.qualified())
		}
		if err := checkType(c.name, r.src.data.Field(i).Type, cols[j].oid, cols[j].typ, cfg.qualified()); err != nil {
			return err
		}
	}
	r.pg = map[string]pgColumn{}
	for _, c := range cols {
		r.pg[c.name] = c
	}
	if identity != "f" {
		return fmt.Errorf("table %s has REPLICA IDENTITY %s, without the whole row before each update and delete, which the update stream retracts: run ALTER TABLE %s REPLICA IDENTITY FULL", cfg.qualified(), identityName(identity), cfg.qualified())
	}
	return nil
}

func identityName(code string) string {
	switch code {
	case "d":
		return "DEFAULT"
	case "n":
		return "NOTHING"
	case "i":
		return "USING INDEX"
	}
	return "FULL"
}

// findColumn is the index of the column named name among n, matched
// exactly or else by case alone (PostgreSQL folds unquoted names to lower
// case); -1 when there is none.
func findColumn(name string, nameOf func(int) string, n int) int {
	for k := range n {
		if nameOf(k) == name {
			return k
		}
	}
	found := -1
	for k := range n {
		if strings.EqualFold(nameOf(k), name) {
			if found >= 0 {
				return -1
			}
			found = k
		}
	}
	return found
}

// checkType refuses a declared column the PostgreSQL column's type cannot
// be read into, naming the type to declare.
func checkType(col string, t arrow.DataType, oid uint32, pgType, table string) error {
	if readsFrom(t, oid) {
		return nil
	}
	if f := flinkType(oid); f != "" {
		return fmt.Errorf("column %s is %s, but column %s of PostgreSQL table %s is %s: declare it %s", col, t, col, table, pgType, f)
	}
	return fmt.Errorf("column %s: PostgreSQL table %s has it as %s, which postgres-cdc cannot read yet", col, table, pgType)
}

// snapshotQuery is the query of the snapshot and where each column of
// the source is in its rows.
func (r *reader) snapshotQuery() (string, *tupleLayout) {
	l := &tupleLayout{}
	var sel []string
	names := make([]string, 0, len(r.pg))
	for n := range r.pg {
		names = append(names, n)
	}
	for _, c := range r.src.columns {
		if c.meta != "" {
			l.index = append(l.index, -1)
			continue
		}
		j := findColumn(c.name, func(k int) string { return names[k] }, len(names))
		l.index = append(l.index, len(sel))
		sel = append(sel, quoteIdent(names[j]))
	}
	if len(sel) == 0 {
		sel = append(sel, "1")
	}
	return "SELECT " + strings.Join(sel, ", ") + " FROM " + r.src.cfg.qualified(), l
}

// relationLayout maps the columns of a relation message of the table,
// checking their types again: the table may have changed since the read
// started.
func (r *reader) relationLayout(m *pglogrepl.RelationMessage) (*tupleLayout, error) {
	l := &tupleLayout{id: m.RelationID}
	for i, c := range r.src.columns {
		if c.meta != "" {
			l.index = append(l.index, -1)
			continue
		}
		j := findColumn(c.name, func(k int) string { return m.Columns[k].Name }, len(m.Columns))
		if j < 0 {
			return nil, fmt.Errorf("column %s is no longer a column of PostgreSQL table %s", c.name, r.src.cfg.qualified())
		}
		pc := m.Columns[j]
		typ := r.pg[pc.Name].typ
		if typ == "" || r.pg[pc.Name].oid != pc.DataType {
			typ = fmt.Sprintf("the type of oid %d", pc.DataType)
		}
		if err := checkType(c.name, r.src.data.Field(i).Type, pc.DataType, typ, r.src.cfg.qualified()); err != nil {
			return nil, err
		}
		l.index = append(l.index, j)
	}
	return l, nil
}

// ensurePublication creates the publication of the table when it is
// missing, and checks that one there publishes the table.
func (r *reader) ensurePublication(ctx context.Context) error {
	cfg := r.src.cfg
	var exists, has bool
	err := r.conn.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_publication WHERE pubname = $1),
		EXISTS (SELECT 1 FROM pg_publication_tables WHERE pubname = $1 AND schemaname = $2 AND tablename = $3)`,
		cfg.publication, cfg.schema, cfg.table).Scan(&exists, &has)
	if err != nil {
		return fmt.Errorf("reading publication %s: %w", cfg.publication, err)
	}
	if !exists {
		if _, err := r.conn.Exec(ctx, "CREATE PUBLICATION "+quoteIdent(cfg.publication)+" FOR TABLE "+cfg.qualified()); err != nil {
			return fmt.Errorf("creating publication %s for table %s (the user needs CREATE on the database and to own the table, or create it: CREATE PUBLICATION %s FOR TABLE %s): %w",
				cfg.publication, cfg.qualified(), quoteIdent(cfg.publication), cfg.qualified(), err)
		}
		return nil
	}
	if !has {
		return fmt.Errorf("publication %s does not publish table %s: run ALTER PUBLICATION %s ADD TABLE %s, or name another in '%s'",
			cfg.publication, cfg.qualified(), quoteIdent(cfg.publication), cfg.qualified(), keyPublication)
	}
	return nil
}
