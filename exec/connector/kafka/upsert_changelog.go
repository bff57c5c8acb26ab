package kafka

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/windowop"
)

// latestValues is what an upsert-kafka read keeps of each key: the value
// of its latest record, so a later record of the key retracts the row
// before it (Flink's ChangelogNormalize keeps the same). It is in the
// checkpoint.
type latestValues map[string][]byte

// decodeUpsert makes the changes records recs of one partition give, in
// order: a key's first record +I, a later one -U of the row before and
// +U, a tombstone -D of the row before (a tombstone of a key not seen
// gives nothing). A record whose value its format cannot read, or without
// a key, is skipped and counted, and leaves its key's row as it was.
func (s *Source) decodeUpsert(recs []*kgo.Record, mem memory.Allocator, c *[2]decoderCache, latest latestValues) (arrow.RecordBatch, []*kgo.Record, error) {
	// the records' own values first, to find those that cannot be read
	var valued []*kgo.Record
	for _, r := range recs {
		if r.Value != nil && r.Key != nil {
			valued = append(valued, r)
		}
	}
	var skipped []*kgo.Record
	bad := map[*kgo.Record]bool{}
	if len(valued) > 0 {
		rec, m, err := s.decodeMessages(valued, mem, c)
		if err != nil {
			return nil, m.badRecords(), err
		}
		rec.Release()
		for i, r := range valued {
			if m.bad[i] {
				bad[r] = true
			}
		}
		skipped = m.badRecords()
	}
	var changes []*kgo.Record
	var kinds []windowop.RowKind
	with := func(r *kgo.Record, value []byte, kind windowop.RowKind) {
		c := *r
		c.Value = value
		changes, kinds = append(changes, &c), append(kinds, kind)
	}
	for _, r := range recs {
		if r.Key == nil {
			skipped = append(skipped, r)
			continue
		}
		key := string(r.Key)
		old, had := latest[key]
		switch {
		case r.Value == nil:
			if had {
				with(r, old, windowop.Delete)
				delete(latest, key)
			}
		case bad[r]:
		case had:
			with(r, old, windowop.UpdateBefore)
			with(r, r.Value, windowop.UpdateAfter)
			latest[key] = slices.Clone(r.Value)
		default:
			with(r, r.Value, windowop.Insert)
			latest[key] = slices.Clone(r.Value)
		}
	}
	if len(changes) == 0 {
		cols := make([]arrow.Array, s.Schema.NumFields())
		for i, f := range s.Schema.Fields() {
			cols[i] = array.MakeArrayOfNull(mem, f.Type, 0)
		}
		defer expr.ReleaseAll(cols)
		return array.NewRecordBatch(s.Schema, cols, 0), skipped, nil
	}
	data, m, err := s.decodeMessages(changes, mem, c)
	if err != nil {
		return nil, skipped, err
	}
	defer data.Release()
	kept := kinds[:0]
	for i, k := range kinds {
		if !m.bad[i] { // values read before: never bad again
			kept = append(kept, k)
		}
	}
	cols := append([]arrow.Array{windowop.RowKindColumn(mem, kept)}, data.Columns()...)
	for _, c := range cols[1:] {
		c.Retain()
	}
	defer expr.ReleaseAll(cols)
	return array.NewRecordBatch(s.Schema, cols, data.NumRows()), skipped, nil
}

func (l latestValues) save(e *checkpoint.Encoder) {
	keys := make([]string, 0, len(l))
	for k := range l {
		keys = append(keys, k)
	}
	slices.Sort(keys) // the same state, the same bytes
	e.Uint(uint64(len(keys)))
	for _, k := range keys {
		e.String(k)
		e.Bytes(l[k])
	}
}

func loadLatest(d *checkpoint.Decoder) latestValues {
	l := latestValues{}
	for n := d.Len(2); n > 0 && d.Err() == nil; n-- {
		k := d.String()
		l[k] = slices.Clone(d.Bytes())
	}
	return l
}
