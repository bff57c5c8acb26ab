package planner

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/windowop"
)

// Sink is the table an INSERT writes to.
type Sink struct {
	Table     *catalog.Table
	Connector string // print, blackhole or filesystem
	// PrintIdentifier is the print connector's 'print-identifier' prefix.
	PrintIdentifier string
	// File is the filesystem connector's file; nil for other connectors.
	File *exec.FileSink
	// Callback is the sink of a table registered from Go (connector "go"):
	// the program's function receives the result batches.
	Callback *exec.CallbackSink
	// Schema and Columns are, for a callback sink, the table's columns and
	// the query column written to each (nil when in table order).
	Schema  *arrow.Schema
	Columns []int
}

// sinkConnectors are the connectors an INSERT can write to today.
var sinkConnectors = []string{"print", "blackhole", "filesystem"}

// PlanInsert plans INSERT INTO sink SELECT ...: the query, then a check that
// its columns fit the sink's, in number and type.
func PlanInsert(stmt *sql.Insert, cat *catalog.Catalog, opts Options) (*Plan, error) {
	if stmt.Overwrite {
		return nil, sql.Errorf(sql.ErrUnsupported, stmt.At, "INSERT OVERWRITE is not supported: a stream can only append")
	}
	t := cat.Table(stmt.Table.Name)
	if t == nil {
		return nil, sql.Errorf(sql.ErrInvalid, stmt.Table.At, "sink table %s does not exist%s", stmt.Table.Name, catalog.DidYouMean(stmt.Table.Name, cat.TableNames()))
	}
	sink, err := planSink(t)
	if err != nil {
		return nil, err
	}
	p, err := PlanSelect(stmt.Query, cat, opts)
	if err != nil {
		return nil, err
	}
	p.Sink = sink
	// The sink's columns in the order the INSERT names them.
	cols := t.Columns
	if len(stmt.Columns) > 0 {
		if len(stmt.Columns) != len(t.Columns) {
			return nil, sql.Errorf(sql.ErrUnsupported, stmt.Columns[0].At, "INSERT into a subset of the sink's columns is not supported yet; list all %d columns", len(t.Columns))
		}
		cols = nil
		for _, c := range stmt.Columns {
			i := t.Column(c.Name)
			if i < 0 {
				return nil, sql.Errorf(sql.ErrInvalid, c.At, "column %s not found in sink table %s%s", c.Name, t.Name, catalog.DidYouMean(c.Name, t.ColumnNames()))
			}
			cols = append(cols, t.Columns[i])
		}
	}
	out := p.Schema()
	if out.NumFields() > 0 && windowop.IsRowKindField(out.Field(0)) {
		if sink.File != nil {
			// As Flink: "Table sink ... doesn't support consuming update changes".
			return nil, sql.Errorf(sql.ErrUnsupported, stmt.Table.At,
				"sink table %s (connector 'filesystem') is append-only and cannot consume the update changes this query produces (early or late firing)", t.Name)
		}
		// an update stream's row kind travels with the rows, not as a column
		out = arrow.NewSchema(out.Fields()[1:], nil)
	}
	if out.NumFields() != len(cols) {
		return nil, sql.Errorf(sql.ErrInvalid, stmt.Query.At, "the query has %d columns but sink table %s has %d (%s)",
			out.NumFields(), t.Name, len(cols), strings.Join(t.ColumnNames(), ", "))
	}
	for i, c := range cols {
		if c.Computed != nil {
			return nil, sql.Errorf(sql.ErrInvalid, stmt.Table.At, "sink table %s has a computed column %s, which cannot be written", t.Name, c.Name)
		}
		if !arrow.TypeEqual(out.Field(i).Type, c.Type) {
			return nil, sql.Errorf(sql.ErrInvalid, stmt.Query.Items[i].At, "query column %d (%s) is %s but sink column %s is %s; add a CAST",
				i+1, out.Field(i).Name, sqlTypeName(out.Field(i).Type), c.Name, c.SQLType)
		}
	}
	if sink.File != nil {
		// a file holds the sink's declared schema: its names, and NOT NULL
		// where the table says so (checked on each batch written)
		sink.File.Table = t.Name
		sink.File.Schema, sink.File.Columns = fileSinkColumns(t, cols, true)
	}
	if sink.Callback != nil {
		sink.Schema, sink.Columns = fileSinkColumns(t, cols, false)
	}
	return p, nil
}

// fileSinkColumns is the sink table's schema and, when the INSERT lists
// the columns in another order, the query column for each table column:
// a file holds them in the table's order. With notNull a NOT NULL column
// of the table is a non-nullable field; otherwise every field is nullable.
func fileSinkColumns(t *catalog.Table, cols []catalog.Column, notNull bool) (*arrow.Schema, []int) {
	fields := make([]arrow.Field, len(t.Columns))
	order := make([]int, len(t.Columns))
	same := true
	for i, c := range t.Columns {
		fields[i] = arrow.Field{Name: c.Name, Type: c.Type, Nullable: !(notNull && c.NotNull)}
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

func planSink(t *catalog.Table) (*Sink, error) {
	if t.Attached != nil {
		return planAttachedSink(t)
	}
	conn, ok := t.Options.Lookup("connector")
	if !ok {
		return nil, sql.Errorf(sql.ErrInvalid, t.At, "sink table %s has no 'connector' option", t.Name)
	}
	s := &Sink{Table: t, Connector: conn.Value}
	if !contains(sinkConnectors, conn.Value) {
		return nil, sql.Errorf(sql.ErrUnsupported, conn.At, "writing to connector '%s' is not supported yet (supported: %s)", conn.Value, strings.Join(sinkConnectors, ", "))
	}
	if s.Connector == "filesystem" {
		return planFileSink(t, conn, s)
	}
	allowed := map[string][]string{"print": {"connector", "print-identifier", "standard-error"}, "blackhole": {"connector"}}[s.Connector]
	for _, o := range t.Options {
		if !contains(allowed, o.Key) {
			return nil, sql.Errorf(sql.ErrInvalid, o.At, "unsupported option '%s' for connector '%s'%s", o.Key, s.Connector, catalog.DidYouMean(o.Key, allowed))
		}
		if o.Key == "standard-error" {
			return nil, sql.Errorf(sql.ErrUnsupported, o.At, "option 'standard-error' is not supported yet: print writes to standard output")
		}
	}
	s.PrintIdentifier, _ = t.Options.Get("print-identifier")
	return s, nil
}

// planFileSink checks a filesystem sink's options: those of the source are
// accepted (a table can be read and written), but the csv options that
// change the written text are refused unless they name the defaults, which
// is all the csv writer can write yet.
func planFileSink(t *catalog.Table, conn sql.Option, s *Sink) (*Sink, error) {
	if format, ok := t.Options.Lookup("format"); ok && !contains(fileFormats, format.Value) {
		if format.Value == "parquet" {
			return planParquetSink(t, conn, s)
		}
		return nil, sql.Errorf(sql.ErrUnsupported, format.At, "format '%s' is not supported yet (supported for writing: %s)%s",
			format.Value, strings.Join(sinkFileFormats, ", "), catalog.DidYouMean(format.Value, sinkFileFormats))
	}
	path, format, err := checkFilesystemOptions(t, conn)
	if err != nil {
		return nil, err
	}
	f, err := readFormatOptions(t)
	if err != nil {
		return nil, err
	}
	for _, o := range t.Options {
		var unsupported bool
		switch o.Key {
		case "csv.field-delimiter":
			unsupported = f.csv.FieldDelimiter != ','
		case "csv.quote-character":
			unsupported = f.csv.QuoteChar != '"'
		case "csv.null-literal":
			unsupported = f.csv.NullLiteral != ""
		}
		if unsupported {
			return nil, sql.Errorf(sql.ErrUnsupported, o.At, "option '%s' = '%s' is not supported for writing yet: a csv sink writes ',' between fields, '\"' quotes and NULL as an empty field", o.Key, o.Value)
		}
	}
	s.File = &exec.FileSink{Path: path.Value, Format: format.Value, TimestampStandard: f.json.TimestampStandard}
	return s, nil
}

// sinkFileFormats are the formats a filesystem sink writes: those it reads
// and parquet, which it only writes so far.
var sinkFileFormats = append(append([]string(nil), fileFormats...), "parquet")

// parquetSinkOptions are the WITH keys of a parquet sink besides the
// connector's. Flink hands 'parquet.*' keys to parquet-mr; wsql knows
// the codec one.
var parquetSinkOptions = []string{"parquet.compression"}

// planParquetSink checks a filesystem sink of format parquet: the
// connector's options and 'parquet.compression', no csv or json ones.
func planParquetSink(t *catalog.Table, conn sql.Option, s *Sink) (*Sink, error) {
	known := append(append([]string(nil), filesystemOptions...), parquetSinkOptions...)
	for _, o := range t.Options {
		if contains(known, o.Key) {
			continue
		}
		for _, f := range fileFormats {
			if contains(formatOptions[f], o.Key) {
				return nil, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' belongs to format '%s', but table %s has format 'parquet'", o.Key, f, t.Name)
			}
		}
		return nil, sql.Errorf(sql.ErrInvalid, o.At, "unsupported option '%s' for connector 'filesystem' with format 'parquet'%s",
			o.Key, catalog.DidYouMean(o.Key, known))
	}
	path, ok := t.Options.Lookup("path")
	if !ok || path.Value == "" {
		return nil, sql.Errorf(sql.ErrInvalid, conn.At, "table %s needs a 'path' option for connector 'filesystem'", t.Name)
	}
	if _, err := readFormatOptions(t); err != nil { // 'scan.watermark.idle-timeout'
		return nil, err
	}
	codec, _ := t.Options.Lookup("parquet.compression")
	if _, ok := exec.ParquetCompression(codec.Value); !ok {
		return nil, sql.Errorf(sql.ErrInvalid, codec.At, "option 'parquet.compression' must be one of %s, got '%s'",
			strings.Join(exec.ParquetCompressions, ", "), codec.Value)
	}
	s.File = &exec.FileSink{Path: path.Value, Format: "parquet", ParquetCompression: codec.Value}
	return s, nil
}
