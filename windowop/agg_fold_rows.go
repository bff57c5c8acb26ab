package windowop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// rowFolder is an accumulator whose result is a BIGINT or INT compared
// exactly (COUNT, COUNT(DISTINCT x) over a fixed-width x, MIN and MAX, SUM
// and AVG of integers) and that folds a batch a row at a time, recording
// its result before and after each row. A GROUP BY whose aggregates all
// are such emits its changes from those records (group_rows.go), with no
// segments and no shadow slots.
type rowFolder interface {
	// foldsRows tells whether this accumulator's input and result types
	// take foldRows.
	foldsRows() bool
	// foldRows folds the rows of col (nil for COUNT(*)) into slots[i], in
	// the order given (slotOrder: a slot's rows in row order), leaving out
	// the rows where pass (a FILTER's condition, by row; nil: none) is
	// false. It writes the result of slots[i] before row
	// i to r.vals[2i] and after it to r.vals[2i+1] (their validity to
	// r.has, for a result that can be NULL), and sets changed[i] when the
	// two differ.
	foldRows(col arrow.Array, pass []bool, slots, order []int32, r *rowResults, changed []bool)
}

// rowResults are one aggregate's results around each row of a batch,
// reused batch after batch.
type rowResults struct {
	vals []int64 // 2i: before row i, 2i+1: after it
	has  []bool  // likewise, false for NULL; nil for a result never NULL
	strs *stringRows
}

// rowResultAppender is a rowFolder whose results are not the int64s of
// rowResults.vals: it appends the results at picks (indexes into vals)
// itself.
type rowResultAppender interface {
	// buildRowResults builds the column of the results at picks, or
	// returns nil for appendRowResults to append them
	buildRowResults(mem memory.Allocator, picks []int32, r *rowResults) arrow.Array
	appendRowResults(b array.Builder, picks []int32, r *rowResults)
}

// grow sizes r for n rows.
func (r *rowResults) grow(n int, nullable bool) {
	r.vals = grow(r.vals, 2*n)
	if nullable {
		r.has = grow(r.has, 2*n)
	}
}

// passes tells whether row i goes through a FILTER.
func passes(pass []bool, i int) bool { return pass == nil || pass[i] }

// isIntResult tells whether a result of type dt appends from int64s
// (appendIntsAt).
func isIntResult(dt arrow.DataType) bool {
	return dt.ID() == arrow.INT64 || dt.ID() == arrow.INT32
}

func (a *countAcc) foldsRows() bool { return true }

func (a *countAcc) foldRows(col arrow.Array, pass []bool, slots, order []int32, r *rowResults, changed []bool) {
	n := len(slots)
	r.grow(n, false)
	vals, counts := r.vals, a.counts
	nulls := !a.star && col.NullN() > 0
	for _, row := range order {
		i, s := int(row), slots[row]
		c := counts[s]
		vals[2*i] = c
		if passes(pass, i) && !(nulls && col.IsNull(i)) {
			c++
			counts[s] = c
			changed[i] = true
		}
		vals[2*i+1] = c
	}
}

func (a *sharedCountDistinct) foldsRows() bool { return true }

func (a *sharedCountDistinct) foldRows(col arrow.Array, pass []bool, slots, order []int32, r *rowResults, changed []bool) {
	n := len(slots)
	r.grow(n, false)
	vals, counts, sets := r.vals, a.counts.counts, a.set.slots
	nulls := col.NullN() > 0
	ints, _ := col.(*array.Int64)
	for _, row := range order {
		i, s := int(row), slots[row]
		c := counts[s]
		vals[2*i] = c
		if passes(pass, i) && !(nulls && col.IsNull(i)) {
			var v uint64
			if ints != nil {
				v = uint64(ints.Value(i))
			} else {
				v = fixedKey(col, i)
			}
			if sets[s].add(v, a.bit) {
				c++
				counts[s] = c
				changed[i] = true
			}
		}
		vals[2*i+1] = c
	}
}

// foldsRows: MIN and MAX of a BIGINT, INT or STRING.
func (a *pickAcc) foldsRows() bool {
	return a.dir != 0 && (a.kind == valInt && isIntResult(a.dt) || a.kind == valString && a.dt.ID() == arrow.STRING)
}

func (a *pickAcc) foldRows(col arrow.Array, pass []bool, slots, order []int32, r *rowResults, changed []bool) {
	switch c := col.(type) {
	case *array.Int64:
		foldPickInts(a, c.Int64Values(), col, pass, slots, order, r, changed)
	case *array.Int32:
		foldPickInts(a, c.Int32Values(), col, pass, slots, order, r, changed)
	case *array.String:
		a.foldPickStrings(c, pass, slots, order, r, changed)
	}
}

// foldPickInts is pickInts (MIN and MAX) a row at a time.
func foldPickInts[T int32 | int64](a *pickAcc, in []T, col arrow.Array, pass []bool, slots, order []int32, r *rowResults, changed []bool) {
	n := len(slots)
	r.grow(n, true)
	vals, has := r.vals, r.has
	nulls := col.NullN() > 0
	kept, held, dir := a.ints, a.has, a.dir
	for _, row := range order {
		i, s := int(row), slots[row]
		cur, ok := kept[s], held[s]
		vals[2*i], has[2*i] = cur, ok
		if passes(pass, i) && !(nulls && col.IsNull(i)) {
			v := int64(in[i])
			if !ok || (dir < 0 && v < cur) || (dir > 0 && v > cur) {
				cur, ok = v, true
				kept[s], held[s] = v, true
				changed[i] = true
			}
		}
		vals[2*i+1], has[2*i+1] = cur, ok
	}
}

// foldsRows: SUM of a BIGINT or INT.
func (a *sumAcc) foldsRows() bool { return !a.isFlt && isIntResult(a.dt) }

func (a *sumAcc) foldRows(col arrow.Array, pass []bool, slots, order []int32, r *rowResults, changed []bool) {
	switch c := col.(type) {
	case *array.Int64:
		foldSumInts(a, c.Int64Values(), col, pass, slots, order, r, changed)
	case *array.Int32:
		foldSumInts(a, c.Int32Values(), col, pass, slots, order, r, changed)
	}
}

// foldSumInts is sumInts a row at a time: a sum changes when the value
// is not 0 or it was NULL, as sameResult compares.
func foldSumInts[T int32 | int64](a *sumAcc, in []T, col arrow.Array, pass []bool, slots, order []int32, r *rowResults, changed []bool) {
	n := len(slots)
	r.grow(n, true)
	vals, has := r.vals, r.has
	nulls := col.NullN() > 0
	sums, held := a.ints, a.has
	for _, row := range order {
		i, s := int(row), slots[row]
		sum, ok := sums[s], held[s]
		vals[2*i], has[2*i] = sum, ok
		if passes(pass, i) && !(nulls && col.IsNull(i)) {
			v := int64(in[i])
			if v != 0 || !ok {
				changed[i] = true
			}
			sum, ok = sum+v, true
			sums[s], held[s] = sum, true
		}
		vals[2*i+1], has[2*i+1] = sum, ok
	}
}

// foldsRows: AVG of a BIGINT or INT.
func (a *avgAcc) foldsRows() bool { return a.kind == avgInt && isIntResult(a.dt) }

func (a *avgAcc) foldRows(col arrow.Array, pass []bool, slots, order []int32, r *rowResults, changed []bool) {
	switch c := col.(type) {
	case *array.Int64:
		foldAvgInts(a, c.Int64Values(), col, pass, slots, order, r, changed)
	case *array.Int32:
		foldAvgInts(a, c.Int32Values(), col, pass, slots, order, r, changed)
	}
}

// foldAvgInts is avgSum a row at a time: the average (sum / count,
// truncated) changes when result, as sameResult compares, does.
func foldAvgInts[T int32 | int64](a *avgAcc, in []T, col arrow.Array, pass []bool, slots, order []int32, r *rowResults, changed []bool) {
	n := len(slots)
	r.grow(n, true)
	vals, has := r.vals, r.has
	nulls := col.NullN() > 0
	sums, counts := a.ints, a.n
	for _, row := range order {
		i, s := int(row), slots[row]
		sum, c := sums[s], counts[s]
		var avg int64
		if c > 0 {
			avg = sum / c
		}
		vals[2*i], has[2*i] = avg, c > 0
		if passes(pass, i) && !(nulls && col.IsNull(i)) {
			sum += int64(in[i])
			c++
			sums[s], counts[s] = sum, c
			if next := sum / c; next != avg || c == 1 {
				avg = next
				changed[i] = true
			}
		}
		vals[2*i+1], has[2*i+1] = avg, c > 0
	}
}

// foldSharedRows folds the rows of col into the set the members share
// (one sharedCountDistinct group, the owner first), in the given order,
// with one probe per row for all of them; passes, results are by member.
// Nexmark q15 and q16 count four FILTERs of each column: a probe each was
// most of their distinct counting.
//
// The rows go in chunks of probeAhead: the sets' buckets of a whole chunk
// are loaded first (touchHomes), then its rows probe them in order. A
// busy slot's set outgrows the caches, so a probe waits on memory; the
// loads of a chunk do not depend on each other, so their misses overlap.
func foldSharedRows(members []*sharedCountDistinct, col arrow.Array, passes [][]bool, slots, order []int32, results []*rowResults, changed []bool) {
	n := len(slots)
	for _, r := range results {
		r.grow(n, false)
	}
	// the members' counts and results as locals: reached through
	// members[j] and results[j], they were loads a member a row
	var ms [valueMarkBits]memberRows
	for j, m := range members {
		ms[j] = memberRows{counts: m.counts.counts, results: results[j].vals, bit: m.bit}
	}
	mine := ms[:len(members)]
	d := members[0].set
	sets := d.slots
	marks, vals := d.rowMarks(members, col, passes, n)
	for from := 0; from < n; from += probeAhead {
		chunk := order[from:min(from+probeAhead, n)]
		d.touched += touchHomes(sets, slots, chunk, marks, vals)
		for _, row := range chunk {
			i, s := int(row), slots[row]
			var added uint8
			if marks[i] != 0 {
				added = sets[s].addMarks(vals[i], marks[i])
			}
			for j := range mine {
				m := &mine[j]
				c := m.counts[s]
				m.results[2*i] = c
				if added&m.bit != 0 {
					c++
					m.counts[s] = c
				}
				m.results[2*i+1] = c
			}
			if added != 0 {
				changed[i] = true
			}
		}
	}
}

// memberRows is what foldSharedRows reads and writes of one member.
type memberRows struct {
	counts  []int64 // by slot
	results []int64 // rowResults.vals
	bit     uint8
}

// probeAhead is how many rows' buckets are loaded before they are probed.
const probeAhead = 32

// touchHomes loads the home bucket of each row of chunk with marks, so
// the probes that follow find them in the cache. It returns a sum of
// what it loaded, which the caller keeps so the loads are not dropped.
func touchHomes(sets []valueSet, slots, chunk []int32, marks []uint8, vals []uint64) uint8 {
	var sum uint8
	for _, i := range chunk {
		if marks[i] == 0 {
			continue
		}
		if b := sets[slots[i]].home(vals[i]); b != nil {
			sum += b.used
		}
	}
	return sum
}

// rowMarks returns, by row of the batch, the marks of the members whose
// FILTER it passes (0 for a NULL value) and its value, a column at a time.
func (d *distinctSets) rowMarks(members []*sharedCountDistinct, col arrow.Array, passes [][]bool, n int) ([]uint8, []uint64) {
	d.marks, d.vals = grow(d.marks, n), grow(d.vals, n)
	marks, vals := d.marks[:n], d.vals[:n]
	clear(marks)
	for j, m := range members {
		if passes[j] == nil {
			for i := range marks {
				marks[i] |= m.bit
			}
			continue
		}
		for i, p := range passes[j][:n] {
			if p {
				marks[i] |= m.bit
			}
		}
	}
	if col.NullN() > 0 {
		for i := range marks {
			if col.IsNull(i) {
				marks[i] = 0
			}
		}
	}
	if ints, ok := col.(*array.Int64); ok {
		for i, v := range ints.Int64Values()[:n] {
			vals[i] = uint64(v)
		}
	} else {
		for i := range vals {
			vals[i] = fixedKey(col, i)
		}
	}
	return marks, vals
}
