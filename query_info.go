package wsql

import (
	"strings"

	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/sql/sqlfmt"
)

// QueryInfo describes a query as it starts to run (Output.OnQueryStart),
// for a monitor that shows what runs.
type QueryInfo struct {
	// Number is the query's number among the queries of the Run, from 1,
	// as checkpoints and the run's messages number them.
	Number int
	// SQL is the statement as wsql prints it back (canonical Flink SQL);
	// for a statement set, its INSERTs inside EXECUTE STATEMENT SET.
	SQL string
	// Plan is the query's EXPLAIN text.
	Plan string
}

// started tells Output.OnQueryStart that the runner's latest query starts.
func (r *runner) started(text, plan string) {
	if r.out.OnQueryStart != nil {
		r.out.OnQueryStart(QueryInfo{Number: r.queries, SQL: text, Plan: plan})
	}
}

// statementText is a query's statement as wsql prints it back.
func statementText(st sql.Statement) string { return sqlfmt.Statement(st) }

// setText is a statement set's INSERTs as one statement.
func setText(inserts []*sql.Insert) string {
	var b strings.Builder
	b.WriteString("EXECUTE STATEMENT SET BEGIN\n")
	for _, ins := range inserts {
		b.WriteString(sqlfmt.Statement(ins))
		b.WriteString(";\n")
	}
	b.WriteString("END")
	return b.String()
}
