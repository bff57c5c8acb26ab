package sql

import "sort"

// A splice records that the original text [origStart, origEnd) was written
// as [rewStart, rewEnd) of the text handed to TiDB. Every token the rewriter
// emits is one splice, rewritten or copied, so any offset TiDB reports maps
// back to the user's own text.
type splice struct {
	origStart, origEnd int
	rewStart, rewEnd   int
}

// spliceMap is the ordered list of splices of one rewritten text. Offsets
// past the last splice (TiDB's "end of input") map to origEnd.
type spliceMap struct {
	splices []splice
	origEnd int
}

func (m *spliceMap) add(s splice) {
	m.splices = append(m.splices, s)
	m.origEnd = s.origEnd
}

// toOrig maps an offset of the rewritten text to the original text. Inside
// a copied splice the mapping is exact; inside a replaced one it lands on
// the replaced text's start (a rewritten call points at the user's TUMBLE);
// in the glue between splices it moves on to the next original token.
func (m *spliceMap) toOrig(rew int) int {
	i := sort.Search(len(m.splices), func(i int) bool { return m.splices[i].rewEnd > rew })
	if i == len(m.splices) {
		return m.origEnd
	}
	s := m.splices[i]
	if rew < s.rewStart {
		return s.origStart
	}
	if s.rewEnd-s.rewStart == s.origEnd-s.origStart {
		return s.origStart + rew - s.rewStart
	}
	return s.origStart
}
