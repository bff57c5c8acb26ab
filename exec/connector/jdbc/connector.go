package jdbc

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/sql"
)

func init() {
	connector.Register(&connector.Connector{Name: Name, Rank: 50, SinkRank: 50, Options: append(options, lookupOptions...), NewSink: planSink, NewSource: planSource, NewLookup: planLookup})
}

// tableSink is a planned write of a PostgreSQL table.
type tableSink struct {
	cfg    *config
	table  *catalog.Table
	key    []string      // the PRIMARY KEY's columns: upsert mode; nil: append mode
	schema *arrow.Schema // the table's columns
	order  []int         // the query column of each table column; nil: the same
	phys   []int         // the table columns written: all but computed ones
	// set by Open from the PostgreSQL table's catalog
	enc    []encoder // of each written column
	pgCols []string  // the PostgreSQL column each is written to, quoted
	pgType []string  // and its type, as format_type prints it
	pgOID  []uint32  // and its type's oid
	loc    *time.Location
}

func planSink(t *catalog.Table, _ sql.Option) (connector.TableSink, error) {
	cfg, err := readConfig(t)
	if err != nil {
		return nil, err
	}
	if err := checkColumnTypes(t); err != nil {
		return nil, err
	}
	s := &tableSink{cfg: cfg, table: t}
	if t.PrimaryKey != nil {
		s.key = t.PrimaryKey.Columns
	}
	for i, c := range t.Columns {
		if c.Computed == nil {
			s.phys = append(s.phys, i)
		}
	}
	return s, nil
}

func (s *tableSink) Bind(t *catalog.Table, cols []catalog.Column) {
	s.schema, s.order = connector.TableColumns(t, cols, true)
}

// AppendOnly: a table without a PRIMARY KEY takes inserts only; with
// one, it takes an update stream by its key.
func (s *tableSink) AppendOnly() bool { return s.key == nil }

func (s *tableSink) Open(ctx context.Context, run *connector.SinkRun) (writer.ResultWriter, error) {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if s.cfg.lanes > 1 {
		ws := make([]*sinkWriter, s.cfg.lanes)
		for i := range ws {
			w, err := s.openWriter(ctx, run)
			if err != nil {
				for _, w := range ws[:i] {
					w.Close()
				}
				return nil, err
			}
			ws[i] = w
		}
		if run.Checkpoint == nil {
			return newLanes(ws), nil
		}
		return committingLanes{newLanes(ws)}, nil
	}
	w, err := s.openWriter(ctx, run)
	if err != nil {
		return nil, err
	}
	if !w.checkpoints {
		return w, nil
	}
	a, _ := w.mode.(*appendRows)
	return &committingWriter{w, a}, nil
}

// openWriter opens a writer of the run on a connection of its own.
func (s *tableSink) openWriter(ctx context.Context, run *connector.SinkRun) (*sinkWriter, error) {
	w := &sinkWriter{checkpoints: run.Checkpoint != nil}
	// a copy of the sink for the run: Open fills in the column mapping
	c := *s
	c.loc = run.Location
	w.s = &c
	w.cols = make([]arrow.Array, len(s.phys))
	if s.key != nil {
		w.mode = newUpsert(&c)
	} else {
		a := &appendRows{}
		if run.Checkpoint != nil {
			a.txn = newTransaction(&c, run)
			w.inTxn = true
		}
		w.mode = a
	}
	conn, err := connectTo(ctx, &c)
	if err != nil {
		return nil, err
	}
	w.conn = conn
	err = c.describe(ctx, w)
	if err == nil {
		err = w.mode.setup(ctx, w)
	}
	if err != nil {
		conn.Close(context.Background())
		return nil, err
	}
	w.start()
	return w, nil
}

var _ exec.CommittingWriter = (*committingWriter)(nil)

// describe reads the PostgreSQL table's columns and matches the table's
// to them: an error naming a column that is missing or of another type.
func (s *tableSink) describe(ctx context.Context, w *sinkWriter) error {
	pg, err := readPGColumns(ctx, w.conn, s.cfg.table)
	if err != nil {
		return s.wrap("reading the columns", err)
	}
	s.enc, s.pgCols, s.pgType, s.pgOID = nil, nil, nil, nil
	for _, i := range s.phys {
		c := s.table.Columns[i]
		col, ok := findColumn(pg, c.Name)
		if !ok {
			var names []string
			for _, p := range pg {
				names = append(names, p.name)
			}
			return fmt.Errorf("table %s: PostgreSQL table %s has no column %s (its columns: %s)", s.table.Name, s.cfg.table, c.Name, strings.Join(names, ", "))
		}
		e, err := match(s.table.Name, s.cfg.table, c, col)
		if err != nil {
			return err
		}
		s.enc = append(s.enc, e)
		s.pgCols = append(s.pgCols, quoteIdent(col.name))
		s.pgType = append(s.pgType, col.shown)
		s.pgOID = append(s.pgOID, col.oid)
	}
	return nil
}

// findColumn finds the PostgreSQL column of a table column: of the same
// name, or of its name in lower case, the name PostgreSQL gives an
// unquoted identifier (Flink's PostgreSQL dialect writes names unquoted).
func findColumn(pg []pgColumn, name string) (pgColumn, bool) {
	for _, p := range pg {
		if p.name == name {
			return p, true
		}
	}
	for _, p := range pg {
		if p.name == strings.ToLower(name) {
			return p, true
		}
	}
	return pgColumn{}, false
}

// quoteIdent quotes a PostgreSQL identifier.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// columnList is the written columns, quoted, separated by commas.
func (s *tableSink) columnList() string { return strings.Join(s.pgCols, ", ") }

// keyColumns are the PostgreSQL columns of the PRIMARY KEY, quoted.
func (s *tableSink) keyColumns() []string {
	var out []string
	for _, k := range s.key {
		for j, i := range s.phys {
			if s.table.Columns[i].Name == k {
				out = append(out, s.pgCols[j])
			}
		}
	}
	return out
}
