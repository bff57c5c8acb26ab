package kafka

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/connector/formats"
	"github.com/wsql/wsql/exec/format/writer"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/windowop"
)

// tableSink is a planned write of a topic: a record per row, its value
// (and key) in the table's formats.
type tableSink struct {
	cfg         *config
	parts       *parts
	table       *catalog.Table
	schema      *arrow.Schema // the table's columns
	order       []int         // the query column of each table column; nil: the same
	valueCols   []int         // the table columns the value holds
	keyCols     []int         // and the key
	value, key  writer.Writing
	partitioner string
	guarantee   string
	txnPrefix   string // 'sink.transactional-id-prefix'
	upsert      bool   // upsert-kafka: takes an update stream by the key
	changelog   bool   // the value in a changelog format (debezium-json): a message per change
}

const exactlyOnce = "exactly-once"

func planSink(t *catalog.Table, conn sql.Option) (connector.TableSink, error) {
	cfg, err := readConfig(t, conn, false)
	if err != nil {
		return nil, err
	}
	p, err := readParts(t, conn, nil)
	if err != nil {
		return nil, err
	}
	if err := checkKeys(t, p.formatKeys); err != nil {
		return nil, err
	}
	return newTableSink(t, cfg, p)
}

// newTableSink reads the sink options and plans the parts' writers.
func newTableSink(t *catalog.Table, cfg *config, p *parts) (*tableSink, error) {
	s := &tableSink{cfg: cfg, parts: p, table: t, partitioner: "default", guarantee: "at-least-once"}
	s.changelog = connector.IsChangelogFormat(p.valueFormat)
	var err error
	for _, o := range t.Options {
		switch o.Key {
		case keyPartitioner:
			if s.partitioner, err = mode(o, "default", "fixed", "round-robin"); err != nil {
				return nil, err
			}
		case keyDeliveryGuarantee:
			if s.guarantee, err = mode(o, "none", "at-least-once", "exactly-once"); err != nil {
				return nil, err
			}
		case keyTransactionalID:
			s.txnPrefix = o.Value
		}
	}
	if s.guarantee == exactlyOnce && s.txnPrefix == "" {
		o, _ := t.Options.Lookup(keyDeliveryGuarantee)
		return nil, sql.Errorf(sql.ErrInvalid, o.At, "'%s' = '%s' needs '%s': its transactions' ids start with it, and no other writer may use it", o.Key, exactlyOnce, keyTransactionalID)
	}
	for i, c := range t.Columns {
		if c.Computed != nil || c.Metadata != "" || p.isKey(c.Name) && !p.valueHasKey {
			continue
		}
		s.valueCols = append(s.valueCols, i)
	}
	for _, name := range p.keyFields { // the key's columns in the order 'key.fields' gives
		s.keyCols = append(s.keyCols, t.Column(name))
	}
	if s.value, err = p.writing(t, "value", p.valueFormat, p.valueAt, fieldsOf(t, s.valueCols)); err != nil {
		return nil, err
	}
	if p.keyFormat != "" {
		if s.key, err = p.writing(t, "key", p.keyFormat, p.keyAt, keyFieldsOf(t, s.keyCols, p.keyPrefix)); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// keyFieldsOf are the key's columns as the key format sees them: without
// 'key.fields-prefix'.
func keyFieldsOf(t *catalog.Table, cols []int, prefix string) []arrow.Field {
	fields := fieldsOf(t, cols)
	for i := range fields {
		fields[i].Name = strings.TrimPrefix(fields[i].Name, prefix)
	}
	return fields
}

func fieldsOf(t *catalog.Table, cols []int) []arrow.Field {
	var fields []arrow.Field
	for _, c := range cols {
		fields = append(fields, t.Columns[c].Field())
	}
	return fields
}

// writing is the writer of a part in its format; raw writes the one
// column's bytes.
func (p *parts) writing(t *catalog.Table, name, f string, at sql.Pos, fields []arrow.Field) (writer.Writing, error) {
	if f == formats.Raw {
		if len(fields) != 1 || (fields[0].Type.ID() != arrow.STRING && fields[0].Type.ID() != arrow.BINARY) {
			return nil, rawColumns(t, name, "writes the message", fields, at)
		}
		return nil, nil
	}
	if m, err := messageWritingOf(t, name, f, fields); m != nil || err != nil {
		return m, err
	}
	return connector.FormatWriting(f, partTable(t, name+".", fields))
}

func (s *tableSink) Bind(t *catalog.Table, cols []catalog.Column) {
	s.schema, s.order = connector.TableColumns(t, cols, true)
}

// AppendOnly: json, csv and raw hold rows, not changes; upsert-kafka
// holds each key's latest row, a tombstone for a deleted one.
func (s *tableSink) AppendOnly() bool { return !s.upsert && !s.changelog }

func (s *tableSink) Open(ctx context.Context, run *connector.SinkRun) (writer.ResultWriter, error) {
	opts, err := s.cfg.clientOpts()
	if err != nil {
		return nil, err
	}
	opts = append(opts, kgo.DefaultProduceTopic(s.cfg.topics[0]), kgo.ProducerLinger(5*time.Millisecond))
	switch s.partitioner {
	case "fixed":
		opts = append(opts, kgo.RecordPartitioner(kgo.ManualPartitioner())) // every record's Partition is 0
	case "round-robin":
		opts = append(opts, kgo.RecordPartitioner(kgo.RoundRobinPartitioner()))
	default:
		// Kafka's default: by the key's murmur2 hash, sticky for no key
		opts = append(opts, kgo.RecordPartitioner(kgo.StickyKeyPartitioner(nil)))
	}
	p, err := openProducer(ctx, s.table.Name, s.cfg, s.guarantee, s.txnPrefix, opts, run)
	if err != nil {
		return nil, err
	}
	return &sinkWriter{producer: p, s: s, loc: run.Location}, nil
}

// sinkWriter produces a record per row of the table's sink.
type sinkWriter struct {
	*producer
	s   *tableSink
	loc *time.Location
	buf bytes.Buffer
}

var _ exec.CommittingWriter = (*sinkWriter)(nil)

func (w *sinkWriter) WriteBatch(rec arrow.RecordBatch) error {
	if err := w.err(); err != nil {
		return err
	}
	n := int(rec.NumRows())
	if n == 0 {
		return nil
	}
	// an update stream (upsert-kafka): its row kinds lead
	var kinds *array.String
	shift := 0
	if windowop.IsRowKindField(rec.Schema().Field(0)) {
		kinds, shift = rec.Column(0).(*array.String), 1
	}
	if err := w.checkNotNull(rec, shift); err != nil {
		return err
	}
	values, err := w.encodeValues(rec, shift)
	if err != nil {
		return err
	}
	var keys [][]byte
	if w.s.parts.keyFormat != "" {
		if keys, err = w.encode(rec, shift, w.s.keyCols, w.s.key, w.s.parts.keyPrefix); err != nil {
			return err
		}
	}
	for i := range n {
		r := &kgo.Record{Value: values[i]}
		if keys != nil {
			r.Key = keys[i]
		}
		if kinds != nil && !w.s.changelog {
			switch windowop.RowKind(kinds.Value(i)) {
			case windowop.UpdateBefore:
				continue // the +U after it replaces the key's value
			case windowop.Delete:
				r.Value = nil // a tombstone
			}
		}
		w.produce(r)
	}
	return nil
}

// checkNotNull refuses a NULL written into a NOT NULL column, naming it
// and the row.
func (w *sinkWriter) checkNotNull(rec arrow.RecordBatch, shift int) error {
	var cols []arrow.Array
	for c := range w.s.schema.NumFields() {
		if w.s.schema.Field(c).Nullable {
			continue
		}
		if cols == nil {
			cols = make([]arrow.Array, w.s.schema.NumFields())
			for i := range cols {
				q := i
				if w.s.order != nil {
					q = w.s.order[i]
				}
				cols[i] = rec.Column(q + shift)
			}
		}
		if cols[c].NullN() > 0 {
			return connector.NotNullError(w.s.table.Name, w.s.schema, c, cols, w.loc)
		}
	}
	return nil
}

// encode writes the table columns cols of each row of rec (in query
// order, after shift leading columns) in a format, a message each; prefix
// is cut from the columns' names.
func (w *sinkWriter) encode(rec arrow.RecordBatch, shift int, cols []int, f writer.Writing, prefix string) ([][]byte, error) {
	arrs := make([]arrow.Array, len(cols))
	fields := make([]arrow.Field, len(cols))
	for i, c := range cols {
		q := c
		if w.s.order != nil {
			q = w.s.order[c]
		}
		arrs[i], fields[i] = rec.Column(q+shift), w.s.schema.Field(c)
		fields[i].Name = strings.TrimPrefix(fields[i].Name, prefix)
	}
	n := int(rec.NumRows())
	if m, ok := f.(*messageWriting); ok {
		return m.encode(arrs, fields, n, w.loc)
	}
	out := make([][]byte, n)
	if f == nil { // raw
		for i := range n {
			switch a := arrs[0].(type) {
			case *array.String:
				if a.IsValid(i) {
					out[i] = []byte(a.Value(i))
				}
			case *array.Binary:
				if a.IsValid(i) {
					out[i] = slices.Clone(a.Value(i))
				}
			}
		}
		return out, nil
	}
	part := array.NewRecordBatch(arrow.NewSchema(fields, nil), arrs, int64(n))
	defer part.Release()
	w.buf.Reset()
	fw, err := f.NewWriter(&w.buf, part.Schema(), w.loc)
	if err != nil {
		return nil, err
	}
	if err := fw.WriteBatch(part); err != nil {
		return nil, err
	}
	if err := fw.Close(); err != nil {
		return nil, err
	}
	rows := splitRows(w.buf.Bytes())
	if len(rows) != n {
		return nil, fmt.Errorf("table %s: %d rows written as %d messages", w.s.table.Name, n, len(rows))
	}
	for i, r := range rows {
		out[i] = slices.Clone(r)
	}
	return out, nil
}

// splitRows cuts a writer's output into its rows: at line ends outside
// double quotes (a CSV field may hold a line break; JSON escapes them).
func splitRows(b []byte) [][]byte {
	var rows [][]byte
	start, quoted := 0, false
	for i, c := range b {
		switch {
		case c == '"':
			quoted = !quoted
		case c == '\n' && !quoted:
			rows = append(rows, bytes.TrimSuffix(b[start:i], []byte("\r")))
			start = i + 1
		}
	}
	if start < len(b) {
		rows = append(rows, b[start:])
	}
	return rows
}
