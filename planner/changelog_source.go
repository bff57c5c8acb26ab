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
// change, as in Flink), so print shows +I, -U, +U and -D; a GROUP BY over
// it retracts (Plan.Retract), as over any update stream.

// changelogSource reports a stream whose rows carry a row kind: the
// leading column a changelog format's source adds.
func changelogSource(stream *arrow.Schema) bool {
	return stream != nil && stream.NumFields() > 0 && windowop.IsRowKindField(stream.Field(0))
}

// changelogWindow refuses a window over a changelog source: as in Flink,
// its changes have no time attribute to window by.
func (s *selectPlanner) changelogWindow() error {
	at := s.stmt.From.Name.At
	for _, g := range s.stmt.GroupBy {
		if _, ok := g.(*sql.WindowCall); ok {
			at = g.Pos()
		}
	}
	what := ""
	if format, ok := s.table.Options.Lookup(connector.KeyFormat); ok {
		what = "its format '" + format.Value + "'"
	} else {
		conn, _ := s.table.Options.Lookup(connector.KeyConnector)
		what = "its connector '" + conn.Value + "'"
	}
	return sql.Errorf(sql.ErrUnsupported, at, "a window over table %s is not supported yet: %s makes it an update stream (+I, -U, +U, -D); aggregate it with a GROUP BY without a window, which retracts the changes",
		s.table.Name, what)
}
