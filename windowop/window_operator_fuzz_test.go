package windowop

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"
)

// fuzzBytes hands out the fuzz input a byte at a time, then zeros.
type fuzzBytes []byte

func (b *fuzzBytes) next() byte {
	if len(*b) == 0 {
		return 0
	}
	c := (*b)[0]
	*b = (*b)[1:]
	return c
}

// fuzzWorkload reads a window configuration, then rows of three bytes:
// a signed time step (disorder and late rows when negative), the key and
// amount, and where batches end and watermarks go.
func fuzzWorkload(data []byte) (refConfig, []click, []batchCut) {
	in := fuzzBytes(data)
	var c refConfig
	kind, shape, flags := in.next(), in.next(), in.next()
	c.delay = int64(in.next() % 40)
	switch kind % 4 {
	case 0:
		c.kind, c.size = "tumble", 1+int64(shape%30)
		c.offset = int64(in.next()) % c.size
	case 1:
		c.kind, c.slide, c.size = "hop", 1+int64(shape%12), 1+int64(shape/12%30)
		c.offset = int64(in.next()) % c.slide
	case 2:
		c.kind, c.slide = "cumulate", 1+int64(shape%10)
		c.size = c.slide * (1 + int64(shape/10%5))
		c.offset = int64(in.next()) % c.size
	default:
		c.kind, c.gap = "session", 1+int64(shape%20)
	}
	if c.kind != "session" { // the reference of sessions has no lateness or firing
		if flags&1 != 0 {
			c.lateness = int64(in.next() % 50)
		}
		c.early, c.lateFire = flags&2 != 0, flags&4 != 0
	}
	var rows []click
	var cuts []batchCut
	ts := int64(int8(in.next())) * 4
	for len(in) > 0 && len(rows) < 300 {
		step, kv, cut := int8(in.next()), in.next(), in.next()
		ts += int64(step)
		rows = append(rows, click{
			ts:     ts,
			usr:    "u" + strconv.Itoa(int(kv%5)),
			amount: float64(kv >> 3 % 10),
			null:   kv&0x80 != 0,
		})
		if cut&1 != 0 {
			cuts = append(cuts, batchCut{end: len(rows), watermark: cut&2 != 0})
		}
		if cut&4 != 0 {
			cuts = append(cuts, batchCut{end: len(rows)}) // an empty batch
		}
	}
	cuts = append(cuts, batchCut{end: len(rows), watermark: true})
	return c, rows, cuts
}

// FuzzWindowOperator runs fuzzed streams through the WindowOperator and the
// naive reference of reference_test.go and requires the same results and
// late-row count, and the same results again when the operator restarts
// from a snapshot after one of the batches; runCuts checks that every Arrow
// buffer is released.
func FuzzWindowOperator(f *testing.F) {
	f.Add([]byte{0, 9, 0, 5, 0, 10, 3, 1, 7, 0x11, 0, 250, 2, 3, 40, 0x91, 1, 200, 3, 0})
	f.Add([]byte{1, 4 + 12*2, 1, 10, 3, 0, 5, 1, 2, 3, 3, 9, 4, 0, 240, 1, 7, 30, 2, 3})
	f.Add([]byte{2, 3 + 10*3, 6, 0, 1, 20, 2, 3, 0, 5, 1, 3, 11, 0, 0, 220, 3, 1, 60, 2, 7})
	f.Add([]byte{3, 7, 0, 3, 5, 1, 0, 2, 20, 1, 1, 1, 0, 236, 1, 3, 2, 0, 5, 40, 2, 0})
	f.Add([]byte{0, 14, 7, 2, 0, 30, 0, 1, 1, 1, 0, 1, 2, 3, 1, 1, 7, 226, 3, 0, 200, 1, 1, 80, 2, 3})
	f.Fuzz(func(t *testing.T, data []byte) {
		c, rows, cuts := fuzzWorkload(data)
		var want []string
		var wantLate int64
		if c.kind == "session" {
			want, wantLate = referenceSessions(c, rows)
		} else {
			want, wantLate = reference(c, rows)
		}
		events, stats := runCuts(t, c.operatorConfig(t), rows, c.delay, cuts)
		require.Equal(t, want, rowsOnly(events), "config %+v", c)
		require.Equal(t, wantLate, stats.LateRowsDropped, "config %+v", c)
		require.Equal(t, int64(len(rows)), stats.RowsIn, "config %+v", c)
		// a restart from a snapshot after one of the batches changes nothing
		k := len(data) % len(cuts)
		restored, _ := runCutsRestoring(t, c.operatorConfig(t), rows, c.delay, cuts, func(i int) bool { return i == k })
		require.Equal(t, events, restored, "config %+v, restored after batch %d", c, k)
	})
}
