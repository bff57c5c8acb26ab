package jdbc

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/sql"
)

// Source is a planned read of a PostgreSQL table: a bounded scan of the
// whole table, as Flink's JDBC table source reads it, in one split, or in
// one split a range of 'scan.partition.column' (scan_options.go).
type Source struct {
	exec.SourceSpec
	cfg   *config
	scan  *scanConfig
	table *catalog.Table
	phys  []int // the table's columns read: all but computed ones
	// onQuery, when set (by tests), is told each statement a read sends.
	onQuery func(stmt string)
}

// planSource plans the read of table t. With env.Run (the query is
// planned to run now), the PostgreSQL table is checked: it exists, and
// has each column of t, of a type the column is read from.
func planSource(t *catalog.Table, _ sql.Option, env *connector.Env) (exec.Source, error) {
	cfg, err := readConfig(t)
	if err != nil {
		return nil, err
	}
	sc, err := readScan(t)
	if err != nil {
		return nil, err
	}
	if err := checkReadTypes(t); err != nil {
		return nil, err
	}
	s := &Source{
		SourceSpec: exec.SourceSpec{
			Table:       t.Name,
			Schema:      connector.SourceSchema(t),
			BatchSize:   env.BatchSize,
			BadRowsPath: env.BadRowsPath,
		},
		cfg:   cfg,
		scan:  sc,
		table: t,
		phys:  physicalColumns(t),
	}
	if s.BatchSize <= 0 {
		s.BatchSize = exec.DefaultBatchSize
	}
	if env.Run {
		if err := checkPGTable(t, cfg, s.phys, reading); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// checkReadTypes refuses, at plan time, a column of table t whose Flink
// type has no PostgreSQL type to be read from.
func checkReadTypes(t *catalog.Table) error {
	return checkTypes(t, sources, "read it as a STRING from jsonb",
		"cannot read from PostgreSQL (the types it reads: docs/postgresql.md); declare it STRING over a text or jsonb column")
}

// NumSplits is the number of ranges, one without partitioning.
func (s *Source) NumSplits() int {
	if s.scan.partition == nil {
		return 1
	}
	return len(s.scan.partition.ranges)
}

func (s *Source) Open(mem memory.Allocator, at *checkpoint.Decoder) (exec.BatchReader, error) {
	if at != nil {
		return nil, s.Checkpointable()
	}
	return openScan(s, mem)
}

func (s *Source) Explain() string {
	var b strings.Builder
	fmt.Fprintf(&b, "connector=[%s], table-name=[%s]", Name, s.cfg.table)
	if p := s.scan.partition; p != nil {
		fmt.Fprintf(&b, ", scan.partition.column=[%s], scan.partition.num=[%d], scan.partition.lower-bound=[%s], scan.partition.upper-bound=[%s]",
			p.column, p.num, p.lowerText, p.upperText)
	}
	if s.scan.fetchSize > 0 {
		fmt.Fprintf(&b, ", scan.fetch-size=[%d]", s.scan.fetchSize)
	}
	fmt.Fprintf(&b, ", splits=[%d]", s.NumSplits())
	return b.String()
}

// Checkpointable refuses checkpoints: a scan reads the table in one
// snapshot, which a restart cannot return to, so the rows read before a
// checkpoint could not be told from the others.
func (s *Source) Checkpointable() error {
	return fmt.Errorf("%w for table %s: a jdbc table is read once, whole, in one PostgreSQL snapshot, which a restart cannot return to; run the query without checkpoints", exec.ErrCheckpointUnsupported, s.Table)
}

func (s *Source) Identity(b *strings.Builder) {
	fmt.Fprintf(b, "jdbc %s %s", s.cfg.shown, s.cfg.table)
	if p := s.scan.partition; p != nil {
		fmt.Fprintf(b, " partition %s %d %s %s", p.column, p.num, p.lowerText, p.upperText)
	}
}
