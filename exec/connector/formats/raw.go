package formats

import (
	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/sql"
)

// Raw is the 'raw' format: a message's bytes as they are, in a table's one
// STRING or BYTES column. The kafka connector reads and writes it itself,
// a message a row; a connector of lines (filesystem, stdin) has no raw
// reader or writer yet, and says so where a table names it.
const Raw = "raw"

func init() {
	connector.RegisterFormat(&connector.Format{Name: Raw, Rank: 50, Reads: true, Writes: true, Messages: true,
		Decoding: func(t *catalog.Table) (format.Decoding, error) { return nil, rawOfLines(t) },
		Writing:  func(t *catalog.Table) (writer.Writing, error) { return nil, rawOfLines(t) }})
}

func rawOfLines(t *catalog.Table) error {
	o, _ := t.Options.Lookup(connector.KeyFormat)
	return sql.Errorf(sql.ErrUnsupported, o.At, "format 'raw' is read and written by the kafka connector only yet, not by this table's connector")
}
