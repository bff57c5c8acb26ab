package rowstore

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// BenchmarkGatherWith gathers a deduplication's output from a batch of
// 4096 rows (an 8-byte string and a BIGINT): each row and, for three in
// four, the row before it in the batch, else a kept row.
func BenchmarkGatherWith(b *testing.B) {
	mem := memory.NewGoAllocator()
	rnd := rand.New(rand.NewPCG(1, 2))
	const n = 4096
	build := func() arrow.RecordBatch {
		bld := array.NewRecordBuilder(mem, schema)
		defer bld.Release()
		for range n {
			bld.Field(0).(*array.StringBuilder).Append(fmt.Sprintf("key-%04d", rnd.IntN(1000)))
			bld.Field(1).(*array.Int64Builder).Append(rnd.Int64())
		}
		return bld.NewRecordBatch()
	}
	s := New(schema, mem)
	kept := build()
	rows := make([]int32, 1000)
	for i := range rows {
		rows[i] = int32(i)
	}
	ids, err := s.Add(kept, rows, nil)
	if err != nil {
		b.Fatal(err)
	}
	batch := build()
	var refs []int32
	for i := range n {
		if i%4 == 0 {
			refs = append(refs, ids[rnd.IntN(len(ids))])
		} else {
			refs = append(refs, int32(-i))
		}
		refs = append(refs, int32(-i-1))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		out, err := s.GatherWith(batch, refs)
		if err != nil {
			b.Fatal(err)
		}
		out.Release()
	}
	b.ReportMetric(float64(len(refs))*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}
