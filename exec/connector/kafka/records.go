package kafka

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/wsql/wsql/exec/expr"
)

// decode makes the rows of records recs of one partition: the value's
// columns, the key's and the metadata, a row per record the formats could
// read. It returns the records it skipped as bad.
func (s *Source) decode(recs []*kgo.Record, mem memory.Allocator, c *[2]decoderCache) (arrow.RecordBatch, []*kgo.Record, error) {
	rec, m, err := s.decodeMessages(recs, mem, c)
	return rec, m.badRecords(), err
}

// decodeMessages is decode, with which records were bad. c are the
// read's decoders of the value and the key.
func (s *Source) decodeMessages(recs []*kgo.Record, mem memory.Allocator, c *[2]decoderCache) (arrow.RecordBatch, *messages, error) {
	m := &messages{recs: recs, bad: make([]bool, len(recs))}
	value, err := s.value.decode(m, mem, &c[0])
	if err != nil {
		return nil, m, err
	}
	if s.value.changelog {
		return value, m, nil // the changes, the row kind first (the schema's)
	}
	defer value.Release()
	var key arrow.RecordBatch
	if s.key != nil {
		if key, err = s.key.decode(m, mem, &c[1]); err != nil {
			return nil, m, err
		}
		defer key.Release()
	}
	keep := make([]int32, 0, len(recs))
	for i := range recs {
		if !m.bad[i] {
			keep = append(keep, int32(i))
		}
	}
	cols := make([]arrow.Array, len(s.columns))
	defer expr.ReleaseAll(cols)
	for c, from := range s.columns {
		var col arrow.Array
		switch from.part {
		case "value":
			col = value.Column(from.index)
			col.Retain()
		case "key":
			col = key.Column(from.index)
			col.Retain()
		default:
			col = metadataColumn(from.meta, s.dataSchema.Field(c).Type, recs, mem)
		}
		if len(keep) < len(recs) {
			taken, err := expr.Take(col, keep, mem)
			col.Release()
			if err != nil {
				return nil, m, err
			}
			col = taken
		}
		cols[c] = col
	}
	return array.NewRecordBatch(s.dataSchema, cols, int64(len(keep))), m, nil
}

// metadataColumn is metadata key k of each record.
func metadataColumn(k string, dt arrow.DataType, recs []*kgo.Record, mem memory.Allocator) arrow.Array {
	b := array.NewBuilder(mem, dt)
	defer b.Release()
	b.Reserve(len(recs))
	for _, r := range recs {
		switch k {
		case metaTopic:
			b.(*array.StringBuilder).Append(r.Topic)
		case metaPartition:
			b.(*array.Int32Builder).Append(r.Partition)
		case metaOffset:
			b.(*array.Int64Builder).Append(r.Offset)
		case metaTimestamp:
			b.(*array.TimestampBuilder).Append(arrow.Timestamp(r.Timestamp.UnixMilli()))
		case metaTimestampType:
			b.(*array.StringBuilder).Append(timestampType(r))
		case metaLeaderEpoch:
			if r.LeaderEpoch < 0 {
				b.AppendNull()
			} else {
				b.(*array.Int32Builder).Append(r.LeaderEpoch)
			}
		case metaKey:
			if r.Key == nil {
				b.AppendNull()
			} else {
				b.(*array.BinaryBuilder).Append(r.Key)
			}
		case metaHeaders:
			appendHeaders(b.(*array.MapBuilder), r.Headers)
		}
	}
	return b.NewArray()
}

// appendHeaders appends a record's headers as a map; of a key given twice
// the last value, as Flink's map of them holds.
func appendHeaders(b *array.MapBuilder, headers []kgo.RecordHeader) {
	b.Append(true)
	keys := b.KeyBuilder().(*array.StringBuilder)
	vals := b.ItemBuilder().(*array.BinaryBuilder)
	for i, h := range headers {
		later := false
		for _, o := range headers[i+1:] {
			later = later || o.Key == h.Key
		}
		if later {
			continue
		}
		keys.Append(h.Key)
		if h.Value == nil {
			vals.AppendNull()
		} else {
			vals.Append(h.Value)
		}
	}
}

// timestampType names the record's timestamp type as Kafka's Java client
// does.
func timestampType(r *kgo.Record) string {
	switch r.Attrs.TimestampType() {
	case 0:
		return "CreateTime"
	case 1:
		return "LogAppendTime"
	}
	return "NoTimestampType"
}
