package kafka

import (
	"fmt"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/connector/formats"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/windowop"
)

// parts are the formats of a message's value and key and the columns the
// key holds, as 'format'/'value.format', 'key.format', 'key.fields',
// 'key.fields-prefix' and 'value.fields-include' say.
type parts struct {
	valueFormat, keyFormat string
	valueAt, keyAt         sql.Pos
	keyFields              []string // the columns of the key, in order
	keyPrefix              string
	valueHasKey            bool // 'value.fields-include' = 'ALL'
	// formatKeys are the format option keys the table may have: each
	// format's own, prefixed 'value.' or 'key.' (and unprefixed for the
	// value when 'format' names it).
	formatKeys []string
}

// partFormats are the formats a message part can be in.
var partFormats = []string{formats.JSON, formats.CSV, formats.Raw, formats.Avro, formats.AvroConfluent}

// readParts reads the parts' options; pk, for upsert-kafka, is the
// PRIMARY KEY's columns, the key's in place of 'key.fields'.
func readParts(t *catalog.Table, conn sql.Option, pk []string) (*parts, error) {
	p := &parts{valueHasKey: true}
	f, hasFormat := t.Options.Lookup(connector.KeyFormat)
	vf, hasValue := t.Options.Lookup(keyValueFormat)
	switch {
	case hasFormat && hasValue:
		return nil, sql.Errorf(sql.ErrInvalid, vf.At, "table %s gives both 'format' and 'value.format': give one", t.Name)
	case hasFormat:
		vf = f
	case !hasValue:
		return nil, sql.Errorf(sql.ErrInvalid, conn.At, "table %s needs a 'format' or 'value.format' option (%s)", t.Name, strings.Join(partFormats, ", "))
	}
	if err := checkPartFormat(vf); err != nil && !(vf.Value == formats.DebeziumJSON && pk == nil) {
		return nil, err
	}
	p.valueFormat, p.valueAt = vf.Value, vf.At
	p.formatKeys = prefixed("value.", vf.Value)
	if hasFormat {
		p.formatKeys = append(p.formatKeys, connector.FormatOptionKeys(vf.Value)...)
	}
	kf, hasKey := t.Options.Lookup(keyKeyFormat)
	fields, hasFields := t.Options.Lookup(keyKeyFields)
	if pk != nil {
		if !hasKey {
			return nil, sql.Errorf(sql.ErrInvalid, conn.At, "table %s needs a 'key.format' option: the format of the message key, its PRIMARY KEY's columns", t.Name)
		}
		fields, hasFields = sql.Option{Key: keyKeyFields, Value: strings.Join(pk, ";"), At: t.PrimaryKey.At}, true
	}
	if hasKey {
		if err := checkPartFormat(kf); err != nil {
			return nil, err
		}
		p.keyFormat, p.keyAt = kf.Value, kf.At
		p.formatKeys = append(p.formatKeys, prefixed("key.", kf.Value)...)
		if !hasFields {
			return nil, sql.Errorf(sql.ErrInvalid, kf.At, "'key.format' needs 'key.fields': the columns the message key holds, separated by ';'")
		}
	} else if hasFields {
		return nil, sql.Errorf(sql.ErrInvalid, fields.At, "'key.fields' needs 'key.format': the format of the message key")
	}
	if o, ok := t.Options.Lookup(keyKeyFieldsPrefix); ok {
		p.keyPrefix = o.Value
	}
	if hasFields {
		for _, name := range items(fields.Value, ";") {
			i := t.Column(name)
			if i < 0 || t.Columns[i].Computed != nil || t.Columns[i].Metadata != "" {
				return nil, sql.Errorf(sql.ErrInvalid, fields.At, "'key.fields' names %q, which is not a physical column of table %s", name, t.Name)
			}
			if !strings.HasPrefix(t.Columns[i].Name, p.keyPrefix) {
				return nil, sql.Errorf(sql.ErrInvalid, fields.At, "key column %s does not start with 'key.fields-prefix' %q", name, p.keyPrefix)
			}
			p.keyFields = append(p.keyFields, t.Columns[i].Name)
		}
	}
	if o, ok := t.Options.Lookup(keyValueFieldsInc); ok {
		switch strings.ToUpper(o.Value) {
		case "ALL":
		case "EXCEPT_KEY":
			p.valueHasKey = false
		default:
			return nil, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be ALL or EXCEPT_KEY, got '%s'", o.Key, o.Value)
		}
	}
	if p.keyPrefix != "" && p.valueHasKey {
		o, _ := t.Options.Lookup(keyKeyFieldsPrefix)
		return nil, sql.Errorf(sql.ErrInvalid, o.At, "'key.fields-prefix' needs 'value.fields-include' = 'EXCEPT_KEY', as in Flink")
	}
	return p, nil
}

func checkPartFormat(o sql.Option) error {
	if !slices.Contains(partFormats, o.Value) {
		return sql.Errorf(sql.ErrUnsupported, o.At, "format '%s' is not supported for Kafka yet (supported: %s)%s",
			o.Value, strings.Join(partFormats, ", "), sql.DidYouMean(o.Value, partFormats))
	}
	return nil
}

// prefixed are the options of format f under a part's prefix.
func prefixed(prefix, f string) []string {
	var keys []string
	for _, k := range connector.FormatOptionKeys(f) {
		keys = append(keys, prefix+k)
	}
	return keys
}

func (p *parts) isKey(column string) bool { return slices.Contains(p.keyFields, column) }

// decoding makes the decoding of a part from the table's options for its
// format, read without their prefix. A changelog format's decoder makes
// the row kind first (changelog).
func (p *parts) decoding(t *catalog.Table, name, f string, at sql.Pos, fields []arrow.Field) (*partDecoding, error) {
	d := &partDecoding{name: name, format: f, schema: arrow.NewSchema(fields, nil), csvQuote: '"'}
	if connector.IsChangelogFormat(f) {
		d.changelog = true
		d.schema = arrow.NewSchema(append([]arrow.Field{windowop.RowKindField()}, fields...), nil)
	}
	if f == formats.Raw {
		if len(fields) != 1 || (fields[0].Type.ID() != arrow.STRING && fields[0].Type.ID() != arrow.BINARY) {
			return nil, rawColumns(t, name, "reads the message", fields, at)
		}
		return d, nil
	}
	if ok, err := d.messageDecoding(t, fields); ok || err != nil {
		return d, err
	}
	own := partTable(t, name+".", fields)
	settings, err := formats.Read(own)
	if err != nil {
		return nil, err
	}
	if d.decoding, err = connector.FormatDecoding(f, own); err != nil {
		return nil, err
	}
	d.ignore = settings.JSON.IgnoreParseErrors
	switch f {
	case formats.CSV:
		d.ignore, d.csvQuote = settings.CSV.IgnoreParseErrors, settings.CSV.QuoteChar
	case formats.DebeziumJSON:
		if o, ok := own.Options.Lookup("debezium-json.ignore-parse-errors"); ok {
			if d.ignore, err = connector.Bool(o); err != nil {
				return nil, err
			}
		}
	}
	return d, nil
}

// partTable is t as a format's registry entry reads it for a part: the
// part's columns (fields), the options under prefix given without it, and
// those of other parts left out.
func partTable(t *catalog.Table, prefix string, fields []arrow.Field) *catalog.Table {
	cp := *t
	cp.Columns, cp.Options = nil, nil
	for _, f := range fields {
		cp.Columns = append(cp.Columns, catalog.Column{Name: f.Name, Type: f.Type, NotNull: !f.Nullable, SQLType: sqlTypeOf(t, f.Name), At: t.At})
	}
	for _, o := range t.Options {
		switch {
		case strings.HasPrefix(o.Key, prefix):
			o.Key = strings.TrimPrefix(o.Key, prefix)
		case strings.HasPrefix(o.Key, "key.") || strings.HasPrefix(o.Key, "value."):
			continue
		case prefix == "key." && (strings.HasPrefix(o.Key, "json.") || strings.HasPrefix(o.Key, "csv.") || isMessageFormatOption(o.Key)):
			continue // the value's, given with 'format'
		}
		cp.Options = append(cp.Options, o)
	}
	return &cp
}

// sqlTypeOf is the SQL type of a column of t by name, or of the column
// with the key prefix before it.
func sqlTypeOf(t *catalog.Table, name string) string {
	for _, c := range t.Columns {
		if c.Name == name || strings.HasSuffix(c.Name, name) {
			return c.SQLType
		}
	}
	return ""
}

// rawColumns is the error of a part in the raw format whose columns are
// not one STRING or BYTES column.
func rawColumns(t *catalog.Table, part, verb string, fields []arrow.Field, at sql.Pos) error {
	what := fmt.Sprintf("%d columns", len(fields))
	if len(fields) == 1 {
		what = fmt.Sprintf("column %s of type %s", fields[0].Name, sqlTypeOf(t, fields[0].Name))
	}
	return sql.Errorf(sql.ErrInvalid, at, "the raw format %s %s from one STRING or BYTES column, but table %s gives it %s", verb, part, t.Name, what)
}
