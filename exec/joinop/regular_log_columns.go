package joinop

import "math"

// logPage is how many rows a page of a log's columns holds: a slice grown
// by appending copied itself, 9M rows' keys at a time.
const logPage = 1 << 14

// logKeys is a log's keys in pages of logPage. A page whose keys all fit
// 32 bits holds them so, as most keys do (Nexmark's prices, and ids
// below 2^31): q7_tvf's 9.2M bids' keys took 37 MB less memory, written
// once and read by a probe's scan.
type logKeys struct {
	pages []keyPage
	n     int
}

// keyPage is a page of a log's keys: narrow's while wide is nil.
type keyPage struct {
	narrow []int32
	wide   []int64
}

// key is row k of the page's key.
func (pg *keyPage) key(k int) int64 {
	if pg.wide == nil {
		return int64(pg.narrow[k])
	}
	return pg.wide[k]
}

// widen makes the page's first n keys 64 bits wide.
func (pg *keyPage) widen(n int) {
	pg.wide = make([]int64, logPage)
	for k, v := range pg.narrow[:n] {
		pg.wide[k] = int64(v)
	}
	pg.narrow = nil
}

func (c *logKeys) append(key int64) { c.appendAll([]int64{key}) }

// appendAll appends keys, a page's run at a time.
func (c *logKeys) appendAll(keys []int64) {
	for len(keys) > 0 {
		off := c.n % logPage
		if off == 0 {
			c.pages = append(c.pages, keyPage{narrow: make([]int32, logPage)})
		}
		pg := &c.pages[len(c.pages)-1]
		run := keys[:min(len(keys), logPage-off)]
		if pg.wide == nil {
			narrow := pg.narrow[off : off+len(run)]
			for k, v := range run {
				if v < math.MinInt32 || v > math.MaxInt32 {
					pg.widen(off + k)
					break
				}
				narrow[k] = int32(v)
			}
		}
		if pg.wide != nil {
			copy(pg.wide[off:], run)
		}
		c.n += len(run)
		keys = keys[len(run):]
	}
}

func (c *logKeys) reset() { c.pages, c.n = nil, 0 }

// logIDs is a log's row ids in pages of logPage. A page whose ids are
// consecutive, as the store numbers a batch's rows, holds its first id
// alone until an id breaks the run (or a row is indexed): Nexmark
// q7_tvf's 9.2M bids' ids were 37 MB of memory written once and not
// read again but for a probe's scan.
type logIDs struct {
	pages []idPage
	n     int
}

// idPage is a page of a log's ids: row k's is first+k while ids is nil.
type idPage struct {
	first int32
	ids   []int32
}

// id is row k of the page's id.
func (pg *idPage) id(k int) int32 {
	if pg.ids == nil {
		return pg.first + int32(k)
	}
	return pg.ids[k]
}

// spellOut writes the page's first n ids out.
func (pg *idPage) spellOut(n int) {
	pg.ids = make([]int32, logPage)
	for k := range n {
		pg.ids[k] = pg.first + int32(k)
	}
}

func (c *logIDs) append(id int32) { c.appendAll([]int32{id}) }

// appendAll appends ids, a page's run at a time.
func (c *logIDs) appendAll(ids []int32) {
	for len(ids) > 0 {
		off := c.n % logPage
		if off == 0 {
			c.pages = append(c.pages, idPage{first: ids[0]})
		}
		pg := &c.pages[len(c.pages)-1]
		run := ids[:min(len(ids), logPage-off)]
		if pg.ids == nil {
			next := pg.first + int32(off)
			for k, id := range run {
				if id != next+int32(k) {
					pg.spellOut(off)
					break
				}
			}
		}
		if pg.ids != nil {
			copy(pg.ids[off:], run)
		}
		c.n += len(run)
		ids = ids[len(run):]
	}
}

// set makes logged row i's id id.
func (c *logIDs) set(i int, id int32) {
	pg := &c.pages[i/logPage]
	if pg.ids == nil {
		if pg.first+int32(i%logPage) == id {
			return
		}
		pg.spellOut(min(logPage, c.n-i/logPage*logPage))
	}
	pg.ids[i%logPage] = id
}

func (c *logIDs) reset() { c.pages, c.n = nil, 0 }
