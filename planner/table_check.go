package planner

import (
	"strings"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/sql"
)

// CheckTable checks the WITH options of a table as CREATE TABLE declares
// it, so a mistake is reported by that statement, at its option, and not
// by the first query that reads the table: the connector, each key (the
// connector's or its format's), the values, the required keys. The
// connector's own planning checks them: its read, or its write when it
// cannot be read or the table's format is not one it reads (parquet); what
// only a write refuses (a csv sink's delimiter) is the INSERT's error. No
// file or stream is looked for (connector.Env.Run): the file of a table
// may be created after the table.
func CheckTable(t *catalog.Table, opts Options) error {
	if t.Attached != nil {
		return nil
	}
	conn, ok := t.Options.Lookup(connector.KeyConnector)
	if !ok {
		return sql.Errorf(sql.ErrInvalid, t.At, "table %s has no 'connector' option", t.Name)
	}
	c, err := connector.TableConnector(conn)
	if err != nil {
		return err
	}
	if f, ok := t.Options.Lookup(connector.KeyFormat); ok && c.NewSource != nil && c.NewSink != nil {
		if _, known := connector.LookupFormat(f.Value); !known {
			return unknownFormat(f)
		}
	}
	if c.NewSource == nil || c.NewSink != nil && !readsFormat(t) {
		_, err := c.PlanSink(t, conn)
		return err
	}
	if err := checkSourceWatermark(t); err != nil {
		return err
	}
	env := opts.connectorEnv()
	env.Run = false
	_, err = c.PlanSource(t, conn, env)
	return err
}

// unknownFormat is the error of a format no source reads and no sink
// writes, on a table that may be either: it names every format, and those
// only written as such.
func unknownFormat(f sql.Option) error {
	read, written := connector.ReadFormats(), connector.WriteFormats()
	supported := strings.Join(read, ", ")
	var writeOnly []string
	for _, name := range written {
		if !connector.Contains(read, name) {
			writeOnly = append(writeOnly, name)
		}
	}
	if len(writeOnly) > 0 {
		supported += "; " + strings.Join(writeOnly, ", ") + " for writing only"
	}
	return sql.Errorf(sql.ErrUnsupported, f.At, "format '%s' is not supported yet (supported: %s)%s",
		f.Value, supported, sql.DidYouMean(f.Value, append(read, writeOnly...)))
}

// readsFormat reports a table without a format or with one that sources
// read (of lines, or of messages); a table of another format (parquet, or
// one that does not exist) can only be written.
func readsFormat(t *catalog.Table) bool {
	name, ok := t.Options.Get(connector.KeyFormat)
	if f, known := connector.LookupFormat(name); ok && known && f.Messages {
		return f.Reads
	}
	return !ok || connector.Contains(connector.ReadFormats(), name)
}

// inDeclaration marks an error at a position of table t's CREATE TABLE
// with that statement (sql.Decl), found as a query plans its read or write
// of t: when the query comes from another text (a later shell line), the
// error shows the CREATE's line, not the query's.
func inDeclaration(t *catalog.Table, err error) error {
	e, ok := err.(*sql.Error)
	if !ok || e.Decl != nil || t.Src == "" || !e.Pos.IsValid() || isHinted(t, e.Pos) {
		return err
	}
	marked := *e
	marked.Decl = &sql.Decl{Name: "CREATE TABLE " + t.Name, Src: t.Src}
	return &marked
}
