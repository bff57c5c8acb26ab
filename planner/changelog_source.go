package planner

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/windowop"
)

// A table read in a changelog format (debezium-json) is an update stream
// from its source on: its rows carry a row kind, which a plain query
// passes through first (planPlain: filter and projection apply to each
// change, as in Flink), so print shows +I, -U, +U and -D.

// changelogSource reports a stream whose rows carry a row kind: the
// leading column a changelog format's source adds.
func changelogSource(stream *arrow.Schema) bool {
	return stream != nil && stream.NumFields() > 0 && windowop.IsRowKindField(stream.Field(0))
}

// changelogAggregate refuses a window or GROUP BY over a changelog
// source: the operators take append-only input until retraction input
// comes.
func (s *selectPlanner) changelogAggregate() error {
	at := s.stmt.From.Name.At
	what := "GROUP BY"
	switch {
	case s.tvf != nil:
		what = "a window"
	case len(s.stmt.GroupBy) > 0:
		at = s.stmt.GroupBy[0].Pos()
		for _, g := range s.stmt.GroupBy {
			if _, ok := g.(*sql.WindowCall); ok {
				what = "a window"
			}
		}
	default:
		what = "an aggregate"
	}
	format, _ := s.table.Options.Lookup(connector.KeyFormat)
	return sql.Errorf(sql.ErrUnsupported, at, "%s over table %s is not supported yet: its format '%s' makes it an update stream (+I, -U, +U, -D), and aggregations take only inserts so far; read it with a plain SELECT, or aggregate a table of another format",
		what, s.table.Name, format.Value)
}
