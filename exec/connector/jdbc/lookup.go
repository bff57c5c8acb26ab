package jdbc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/lookup"
	"github.com/wsql/wsql/sql"
)

// lookupSource is a PostgreSQL table a lookup join queries by key: one
// query a batch, SELECT the columns WHERE the key is one of the batch's
// keys, sent as one array a key column.
type lookupSource struct {
	cfg    *config
	lcfg   lookupConfig
	table  *catalog.Table
	schema *arrow.Schema // the table's columns, as the join reads them
	keys   []int         // the key columns, in schema
}

// planLookup plans the lookup of table t by the columns keys.
func planLookup(t *catalog.Table, keys []string) (*lookup.Plan, error) {
	cfg, err := readConfig(t)
	if err != nil {
		return nil, err
	}
	lcfg, err := readLookupConfig(t)
	if err != nil {
		return nil, err
	}
	if err := checkColumnTypes(t); err != nil {
		return nil, err
	}
	for _, c := range t.Columns {
		if _, ok := c.Type.(*arrow.ListType); ok {
			return nil, sql.Errorf(sql.ErrUnsupported, c.At, "column %s of table %s is %s: a lookup join does not read ARRAY columns of PostgreSQL yet", c.Name, t.Name, c.SQLType)
		}
	}
	s := &lookupSource{cfg: cfg, lcfg: lcfg, table: t, schema: connector.SourceSchema(t)}
	for _, k := range keys {
		i := s.schema.FieldIndices(k)
		if len(i) != 1 {
			return nil, fmt.Errorf("table %s has no column %s to look up", t.Name, k)
		}
		s.keys = append(s.keys, i[0])
	}
	return &lookup.Plan{Source: s, Cache: lcfg.cache}, nil
}

// lookupTimeout bounds one query, its retries included.
const lookupTimeout = 5 * time.Minute

// Open connects, reads the PostgreSQL table's columns and checks them
// against the table's, and prepares the query.
func (s *lookupSource) Open(mem memory.Allocator) (lookup.Lookuper, error) {
	l := &lookuper{s: s, mem: mem}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := l.connect(ctx); err != nil {
		return nil, s.wrap("connecting", err)
	}
	return l, nil
}

// lookuper queries the table on one connection.
type lookuper struct {
	s    *lookupSource
	mem  memory.Allocator
	conn *pgconn.PgConn
	// set by describe from the PostgreSQL table
	query   string
	keyEnc  []encoder // of each key column's array elements
	keyOID  []uint32  // each key column's type
	decs    []decoder // of each column
	formats []int16   // each column's result format: binary
	// reused
	params [][]byte
	pfmt   []int16
	// Queries and Reconnects count the queries sent and the connections
	// made again after one was lost.
	queries, reconnects int64
}

// connect opens the connection and prepares the query on it.
func (l *lookuper) connect(ctx context.Context) error {
	conn, err := pgconn.ConnectConfig(ctx, l.s.cfg.conn)
	if err != nil {
		return err
	}
	l.conn = conn
	if err := l.describe(ctx); err != nil {
		conn.Close(context.Background())
		l.conn = nil
		return err
	}
	return nil
}

// lookupStmt is the prepared statement's name.
const lookupStmt = "wsql_lookup"

// describe reads the PostgreSQL table's columns, matches the table's to
// them, and prepares the query.
func (l *lookuper) describe(ctx context.Context) error {
	s := l.s
	pg, err := readPGColumns(ctx, l.conn, s.cfg.table)
	if err != nil {
		return err
	}
	var cols []string
	l.decs, l.formats = nil, nil
	for i, f := range s.schema.Fields() {
		col, ok := findColumn(pg, f.Name)
		if !ok {
			var names []string
			for _, p := range pg {
				names = append(names, p.name)
			}
			return fmt.Errorf("PostgreSQL table %s has no column %s (its columns: %s)", s.cfg.table, f.Name, strings.Join(names, ", "))
		}
		dec, err := readMatch(s.table.Name, s.cfg.table, s.table.Columns[physicalColumn(s.table, i)], col)
		if err != nil {
			return err
		}
		l.decs, l.formats = append(l.decs, dec), append(l.formats, 1) // binary
		cols = append(cols, quoteIdent(col.name))
	}
	l.keyEnc, l.keyOID = nil, nil
	var keyCols, arrays []string
	for k, i := range s.keys {
		// the keys are sent as the key column's Flink type maps to, and
		// compared with the column's values as PostgreSQL compares them
		t := s.schema.Field(i).Type
		oid := targets(t)[0]
		l.keyEnc, l.keyOID = append(l.keyEnc, scalarEncoder(t, oid)), append(l.keyOID, oid)
		keyCols = append(keyCols, cols[i])
		arrays = append(arrays, fmt.Sprintf("$%d::%s[]", k+1, pgNames[oid]))
	}
	where := keyCols[0] + " = ANY(" + arrays[0] + ")"
	if len(keyCols) > 1 {
		where = "(" + strings.Join(keyCols, ", ") + ") IN (SELECT * FROM unnest(" + strings.Join(arrays, ", ") + "))"
	}
	l.query = "SELECT " + strings.Join(cols, ", ") + " FROM " + s.cfg.table + " WHERE " + where
	if _, err := l.conn.Prepare(ctx, lookupStmt, l.query, nil); err != nil {
		return err
	}
	if l.params == nil { // a connection made again keeps the keys encoded
		l.params, l.pfmt = make([][]byte, len(s.keys)), make([]int16, len(s.keys))
		for i := range l.pfmt {
			l.pfmt[i] = 1 // binary
		}
	}
	return nil
}

// physicalColumn is the index in t.Columns of the ith physical column.
func physicalColumn(t *catalog.Table, i int) int {
	for c, col := range t.Columns {
		if col.Computed != nil || col.Metadata != "" {
			continue
		}
		if i == 0 {
			return c
		}
		i--
	}
	return -1
}

// Lookup sends the keys as one array a key column and reads the rows
// back into a batch; a lost connection is made again and the query sent
// again, 'lookup.max-retries' times at most.
func (l *lookuper) Lookup(keys arrow.RecordBatch) (arrow.RecordBatch, error) {
	for c := range l.params {
		l.params[c] = appendKeyArray(l.params[c][:0], l.keyEnc[c], l.keyOID[c], keys.Column(c))
	}
	ctx, cancel := context.WithTimeout(context.Background(), lookupTimeout)
	defer cancel()
	b := array.NewRecordBuilder(l.mem, l.s.schema)
	defer b.Release()
	for attempt := 0; ; attempt++ {
		err := l.ensureConnected(ctx)
		if err == nil {
			l.queries++
			err = l.read(ctx, b)
			if err == nil {
				return b.NewRecordBatch(), nil
			}
		}
		// a failed read leaves rows in the builder: drop them
		b.NewRecordBatch().Release()
		if attempt >= l.s.lcfg.maxRetries || !retriable(err, l.conn) {
			return nil, l.s.wrap(fmt.Sprintf("looking up %d keys", keys.NumRows()), err)
		}
		if l.conn != nil {
			l.conn.Close(context.Background())
			l.conn = nil
		}
		select {
		case <-ctx.Done():
			return nil, l.s.wrap(fmt.Sprintf("looking up %d keys", keys.NumRows()), err)
		case <-time.After(time.Duration(attempt+1) * 100 * time.Millisecond):
		}
	}
}

// ensureConnected connects again after a connection was lost.
func (l *lookuper) ensureConnected(ctx context.Context) error {
	if l.conn != nil && !l.conn.IsClosed() {
		return nil
	}
	if l.conn != nil {
		l.conn.Close(context.Background())
		l.conn = nil
	}
	l.reconnects++
	return l.connect(ctx)
}

// read runs the prepared query and appends its rows to b.
func (l *lookuper) read(ctx context.Context, b *array.RecordBuilder) error {
	readers := make([]valueReader, len(l.decs))
	for c, d := range l.decs {
		readers[c] = d(b.Field(c))
	}
	rr := l.conn.ExecPrepared(ctx, lookupStmt, l.params, l.pfmt, l.formats)
	var derr error
	for rr.NextRow() {
		if derr != nil {
			continue
		}
		for c, v := range rr.Values() {
			if v == nil {
				b.Field(c).AppendNull()
				continue
			}
			if err := readers[c].value(v); err != nil {
				derr = fmt.Errorf("column %s: %w", l.s.schema.Field(c).Name, err)
				break
			}
		}
	}
	if _, err := rr.Close(); err != nil {
		return err
	}
	return derr
}

// Close closes the connection.
func (l *lookuper) Close() error {
	if l.conn != nil {
		l.conn.Close(context.Background())
		l.conn = nil
	}
	return nil
}

// appendKeyArray writes the values of a key column (no NULLs) as a
// one-dimensional PostgreSQL array of elements of type oid.
func appendKeyArray(b []byte, e encoder, oid uint32, col arrow.Array) []byte {
	n := col.Len()
	b = be.AppendUint32(b, 1) // dimensions
	b = be.AppendUint32(b, 0) // no NULL
	b = be.AppendUint32(b, oid)
	b = be.AppendUint32(b, uint32(n))
	b = be.AppendUint32(b, 1) // the lower bound
	for i := range n {
		b = appendField(b, e, col, i)
	}
	return b
}

// wrap names the table and the database in an error, without the
// password.
func (s *lookupSource) wrap(what string, err error) error {
	msg := err.Error()
	var pg *pgconn.PgError
	if errors.As(err, &pg) && pg.Detail != "" {
		msg += " (" + pg.Detail + ")"
	}
	return errors.New(redact(fmt.Sprintf("table %s (PostgreSQL table %s at %s): lookup join: %s: %s", s.table.Name, s.cfg.table, s.cfg.shown, what, msg), s.cfg.password))
}
