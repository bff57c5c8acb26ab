package windowop

import (
	"math"
	"math/bits"
)

// latenessBuckets is the size of Lateness's histogram: four buckets per
// power of two, so a quantile read from it is within 25% of the true one.
const latenessBuckets = 4 + 62*4

// Lateness is the distribution of how late the dropped rows were, in ms:
// how much larger the WATERMARK delay would have had to be for the row to
// be on time, i.e. the watermark at its arrival minus the cleanup time of
// its last window, plus 1 ms (the watermark must stay below the cleanup
// time). It is a fixed log-scale histogram, so recording a row allocates
// nothing and partitions merge by adding.
type Lateness struct {
	Max     int64 // ms; 0 when no row was late
	Buckets [latenessBuckets]int64
}

// latenessBucket is the bucket of ms > 0: 0..3 exactly, then four per
// power of two by the two bits after the leading one.
func latenessBucket(ms int64) int {
	if ms < 4 {
		return int(max(ms, 0))
	}
	e := bits.Len64(uint64(ms)) - 1 // >= 2
	m := int(ms>>(e-2)) & 3
	return 4 + (e-2)*4 + m
}

// latenessBucketMax is the largest value of bucket b.
func latenessBucketMax(b int) int64 {
	if b < 4 {
		return int64(b)
	}
	e := (b-4)/4 + 2
	m := int64((b-4)%4 + 4)
	return int64(min(uint64(m+1)<<(e-2)-1, math.MaxInt64))
}

// Add records one row late by ms.
func (l *Lateness) Add(ms int64) {
	l.Buckets[latenessBucket(ms)]++
	l.Max = max(l.Max, ms)
}

// Merge adds the rows of o.
func (l *Lateness) Merge(o *Lateness) {
	for i, n := range o.Buckets {
		l.Buckets[i] += n
	}
	l.Max = max(l.Max, o.Max)
}

// Count is the number of rows recorded.
func (l *Lateness) Count() int64 {
	var n int64
	for _, c := range l.Buckets {
		n += c
	}
	return n
}

// Quantile returns a lateness that at least the fraction q of the rows
// did not exceed: the upper end of the bucket holding that rank, capped at
// Max. A delay that much larger would have kept them. 0 for no rows.
func (l *Lateness) Quantile(q float64) int64 {
	n := l.Count()
	if n == 0 {
		return 0
	}
	rank := min(max(int64(math.Ceil(q*float64(n))), 1), n)
	var seen int64
	for b, c := range l.Buckets {
		if seen += c; seen >= rank {
			return min(latenessBucketMax(b), l.Max)
		}
	}
	return l.Max
}

// encode lists the histogram for a checkpoint: Max, then (bucket, count)
// for each non-empty bucket.
func (l *Lateness) encode(out []int64) []int64 {
	out = append(out, l.Max)
	for b, c := range l.Buckets {
		if c != 0 {
			out = append(out, int64(b), c)
		}
	}
	return out
}

// decode reads what encode wrote; false if it does not fit.
func (l *Lateness) decode(v []int64) bool {
	*l = Lateness{}
	if len(v) == 0 || len(v)%2 != 1 || v[0] < 0 {
		return len(v) == 0
	}
	l.Max = v[0]
	for i := 1; i < len(v); i += 2 {
		b, c := v[i], v[i+1]
		if b < 0 || b >= latenessBuckets || c < 0 {
			return false
		}
		l.Buckets[b] += c
	}
	return true
}
