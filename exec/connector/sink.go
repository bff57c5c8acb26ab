package connector

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/writer"
)

// TableSink is a planned INSERT target, made by a connector's NewSink.
type TableSink interface {
	// Bind tells the sink the query columns written to the table's
	// columns, in the order the INSERT names them (checked by the planner).
	Bind(t *catalog.Table, cols []catalog.Column)
	// AppendOnly reports a sink that cannot take an update stream.
	AppendOnly() bool
	// Open starts the sink's writer for one run.
	Open(ctx context.Context, run *SinkRun) (writer.ResultWriter, error)
}

// RunChecker is a TableSink that checks what it writes to outside wsql
// (a database table's columns) when its query is planned to run, as
// Env.Run tells a source: CREATE TABLE and EXPLAIN never call it, so they
// need no server. An error positioned in the table's CREATE TABLE is
// shown there.
type RunChecker interface {
	CheckRun() error
}

// SinkRun is what a run gives its sink.
type SinkRun struct {
	Location *time.Location // zoned timestamps are written in it
	Stdout   io.Writer      // where the print connector writes
	// Checkpoint is set when the run takes checkpoints: a sink that
	// supports them commits its output at each (exec.CommittingWriter).
	Checkpoint *exec.Checkpointing
	// Nth counts the earlier INSERTs of the script into the same
	// PathSink's path (their part files are kept).
	Nth int
	// Part names the partition a scaled-out query's run writes for ("" in
	// other queries): each partition's run has its own checkpoints, so a
	// transactional sink keeps its transactional ids apart by it.
	Part string
}

// PathSink is a sink that writes files at a path: the engine keeps the
// INSERTs of a script into one path apart (Nth) and checks that no query
// writes what it reads.
type PathSink interface {
	OutputPath() string
}

// TableColumns is the sink table's schema and, when the INSERT lists the
// columns in another order, the query column for each table column. With
// notNull a NOT NULL column of the table is a non-nullable field;
// otherwise every field is nullable.
func TableColumns(t *catalog.Table, cols []catalog.Column, notNull bool) (*arrow.Schema, []int) {
	fields := make([]arrow.Field, len(t.Columns))
	order := make([]int, len(t.Columns))
	same := true
	for i, c := range t.Columns {
		fields[i] = c.Field()
		fields[i].Nullable = !(notNull && c.NotNull)
		for q, qc := range cols {
			if qc.Name == c.Name {
				order[i] = q
			}
		}
		same = same && order[i] == i
	}
	if same {
		order = nil
	}
	return arrow.NewSchema(fields, nil), order
}

// NotNullError names the NOT NULL column col of sink table that receives
// a NULL, and the first such row with the values written to the table's
// columns (cols, of schema).
func NotNullError(table string, schema *arrow.Schema, col int, cols []arrow.Array, loc *time.Location) error {
	row := 0
	for cols[col].IsValid(row) {
		row++
	}
	var text []byte
	for i := range cols {
		if i > 0 {
			text = append(text, ", "...)
		}
		text = append(text, schema.Field(i).Name...)
		text = append(text, '=')
		if cols[i].IsNull(row) {
			text = append(text, "NULL"...)
			continue
		}
		v := format.AppendValue(nil, cols[i], row, loc)
		if len(v) > 40 {
			v = append(v[:40:40], "..."...)
		}
		text = strconv.AppendQuote(text, string(v))
	}
	return fmt.Errorf("column %s of sink table %s is NOT NULL, but the query writes NULL into it, in the row (%s); "+
		"filter such rows out (WHERE ... IS NOT NULL), replace the NULL (COALESCE), or declare the column without NOT NULL",
		schema.Field(col).Name, table, text)
}
