package arrowtest

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// BufferSites is where rec's columns keep their buffers (the first byte
// of each that is not empty), for a test of whether an operator reuses
// its output memory from batch to batch.
func BufferSites(rec arrow.RecordBatch) map[*byte]bool {
	at := map[*byte]bool{}
	for _, col := range rec.Columns() {
		for _, buf := range col.Data().Buffers() {
			if buf != nil && buf.Len() > 0 {
				at[&buf.Bytes()[0]] = true
			}
		}
	}
	return at
}

// RequireReused fails t unless every buffer of a later batch (sites
// later) is one of an earlier batch's (earlier).
func RequireReused(t testing.TB, earlier, later map[*byte]bool) {
	t.Helper()
	if len(later) == 0 {
		t.Fatal("the later batch has no buffers")
	}
	for at := range later {
		if !earlier[at] {
			t.Fatal("a buffer of the later batch is new memory, not one of the earlier batch's")
		}
	}
}
