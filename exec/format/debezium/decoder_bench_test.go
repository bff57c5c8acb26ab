package debezium

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// BenchmarkDecodeUpdates decodes "u" envelopes (two changes each), the
// costliest kind: per batch the columns of before and after are
// concatenated and taken.
func BenchmarkDecodeUpdates(b *testing.B) {
	var sb strings.Builder
	for i := range 10_000 {
		fmt.Fprintf(&sb, `{"before":{"id":%d,"name":"n%d","weight":%d.5},"after":{"id":%d,"name":"n%d","weight":%d.25},"op":"u","ts_ms":1}`+"\n", i, i, i, i, i, i+1)
	}
	in := sb.String()
	b.SetBytes(int64(len(in)))
	b.ReportAllocs()
	for b.Loop() {
		d := Decoding{}.NewDecoder(strings.NewReader(in), "in.json", changeSchema, memory.DefaultAllocator, 4096)
		for {
			rec, err := d.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			rec.Release()
		}
	}
	b.ReportMetric(float64(b.N)*10_000/b.Elapsed().Seconds(), "envelopes/s")
}
