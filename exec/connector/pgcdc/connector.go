package pgcdc

import (
	"fmt"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/windowop"
)

var metadata = []connector.MetadataKey{
	{Key: metaOpTS, SQLType: "TIMESTAMP_LTZ(3)", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}, Description: "when the change was committed; 1970-01-01 00:00:00 for a row of the snapshot"},
	{Key: metaTable, SQLType: "STRING", Type: arrow.BinaryTypes.String, Description: "the PostgreSQL table's name"},
	{Key: metaSchema, SQLType: "STRING", Type: arrow.BinaryTypes.String, Description: "the PostgreSQL table's schema"},
	{Key: metaDatabase, SQLType: "STRING", Type: arrow.BinaryTypes.String, Description: "the PostgreSQL table's database"},
}

func init() {
	connector.Register(&connector.Connector{Name: Name, Rank: 52, SinkRank: 52, Options: options, Metadata: metadata, NewSource: planSource})
}

// Source is a planned read of a PostgreSQL table's changes: one split,
// an update stream whose row kind leads the schema.
type Source struct {
	exec.SourceSpec
	cfg *config
	// data is the schema without the row kind; columns says where each
	// of its columns comes from.
	data    *arrow.Schema
	columns []column
	key     []int // the PRIMARY KEY's columns, indexes into columns
}

// column is where a column of the source comes from: a column of the
// PostgreSQL table (its name) or a metadata key.
type column struct {
	name string // the table's column, as declared in Flink
	meta string // the metadata key; "" for a physical column
}

// planSource plans the read of table t.
func planSource(t *catalog.Table, conn sql.Option, env *connector.Env) (exec.Source, error) {
	cfg, err := readConfig(t, conn)
	if err != nil {
		return nil, err
	}
	if t.PrimaryKey == nil {
		return nil, sql.Errorf(sql.ErrInvalid, conn.At, "a postgres-cdc table needs a PRIMARY KEY ... NOT ENFORCED: its changes are an update stream by that key; table %s has none", t.Name)
	}
	idle, err := idleTimeout(t)
	if err != nil {
		return nil, err
	}
	data := connector.SourceSchema(t)
	s := &Source{cfg: cfg, data: data}
	for _, f := range data.Fields() {
		col := t.Columns[t.Column(f.Name)]
		if col.Metadata == "" && sources(f.Type) == nil {
			return nil, sql.Errorf(sql.ErrUnsupported, col.At, "column %s is %s, which postgres-cdc cannot read yet; it reads BOOLEAN, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL, STRING, BYTES, DATE, TIMESTAMP and TIMESTAMP_LTZ", col.Name, col.SQLType)
		}
		s.columns = append(s.columns, column{name: f.Name, meta: col.Metadata})
	}
	for _, k := range t.PrimaryKey.Columns {
		for i, c := range s.columns {
			if strings.EqualFold(c.name, k) && c.meta == "" {
				s.key = append(s.key, i)
			}
		}
	}
	if len(s.key) != len(t.PrimaryKey.Columns) {
		return nil, sql.Errorf(sql.ErrInvalid, t.PrimaryKey.At, "the PRIMARY KEY of a postgres-cdc table must be physical columns of table %s", t.Name)
	}
	batch := env.BatchSize
	if batch <= 0 {
		batch = exec.DefaultBatchSize
	}
	s.SourceSpec = exec.SourceSpec{
		Table:       t.Name,
		Schema:      arrow.NewSchema(append([]arrow.Field{windowop.RowKindField()}, data.Fields()...), nil),
		BatchSize:   batch,
		IdleTimeout: idle,
		BadRowsPath: env.BadRowsPath,
	}
	return s, nil
}

// idleTimeout reads 'scan.watermark.idle-timeout'.
func idleTimeout(t *catalog.Table) (time.Duration, error) {
	o, ok := t.Options.Lookup(connector.KeyIdleTimeout)
	if !ok {
		return 0, nil
	}
	return connector.Duration(o)
}

func (s *Source) NumSplits() int { return 1 }

func (s *Source) Open(mem memory.Allocator, at *checkpoint.Decoder) (exec.BatchReader, error) {
	return openReader(s, mem, at)
}

func (s *Source) Explain() string {
	return fmt.Sprintf("connector=[%s], table=[%s.%s], slot=[%s], publication=[%s], startup=[%s], splits=[1]",
		Name, s.cfg.schema, s.cfg.table, s.cfg.slot, s.cfg.publication, s.cfg.startup)
}

func (s *Source) Checkpointable() error { return nil }

// Identity names the table and slot: another table or slot is another
// read, whose checkpoint does not fit.
func (s *Source) Identity(b *strings.Builder) {
	fmt.Fprintf(b, "%s %s %s.%s slot %s publication %s %s", Name, s.cfg.shown, s.cfg.schema, s.cfg.table, s.cfg.slot, s.cfg.publication, s.cfg.startup)
}
