package nexmark

// mix is the kinds of the event stream: each cycle of total events holds
// person persons, then auction auctions, then the bids. Event id is at
// offset id%total of cycle (epoch) id/total.
type mix struct{ person, auction, total int64 }

// The kinds of events, as Flink's nexmark numbers them in event_type.
const (
	kindPerson = iota
	kindAuction
	kindBid
)

// kindOf is the kind of a table's events.
func kindOf(table string) int {
	switch table {
	case "person":
		return kindPerson
	case "auction":
		return kindAuction
	}
	return kindBid
}

// kindRange is where a table's events fall within each cycle.
func (m mix) kindRange(table string) (offset, count int64) {
	switch kindOf(table) {
	case kindPerson:
		return 0, m.person
	case kindAuction:
		return m.person, m.auction
	}
	return m.person + m.auction, m.total - m.person - m.auction
}

// split is the cycle of event id and its offset in it.
func (m mix) split(id int64) (epoch, off int64) { return id / m.total, id % m.total }

// kind is the kind of event id.
func (m mix) kind(id int64) int {
	return m.kindAt(id % m.total)
}

// kindAt is the kind of the event at offset off of a cycle.
func (m mix) kindAt(off int64) int {
	switch {
	case off < m.person:
		return kindPerson
	case off < m.person+m.auction:
		return kindAuction
	}
	return kindBid
}

// lastPerson is the 0-based id of the last person at or before the
// event at offset off of cycle epoch.
func (m mix) lastPerson(epoch, off int64) int64 {
	return epoch*m.person + min(off, m.person-1)
}

// lastAuction is the 0-based id of the last auction at or before the
// event at offset off of cycle epoch (-1 before the first).
func (m mix) lastAuction(epoch, off int64) int64 {
	switch {
	case off < m.person:
		return epoch*m.auction - 1
	case off >= m.person+m.auction:
		return epoch*m.auction + m.auction - 1
	}
	return epoch*m.auction + off - m.person
}
