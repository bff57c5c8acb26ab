package nexmark

import "strings"

// drawDepth is how far into an event's draws a query reads. Each event
// draws from its own PCG, so stopping early leaves every value read the
// same; the columns not made hold zeros and empty strings, which nothing
// reads. The random letters of the long strings are most of the draws: an
// auction's extra pads it to about 500 bytes.
//
//   - a bid draws its auction and bidder (depthKeys), then its price
//     (depthPrice), then its channel and url (depthStrings), then its
//     extra (depthAll), whose length depends on theirs. Its extra without
//     its channel and url is depthBidExtra: only a hot channel's bid can
//     have an extra (see bidExtra), so the words of another's url, drawn
//     before an extra that is always empty, are not drawn;
//   - an auction draws its seller (depthKeys), then its itemName,
//     description, initialBid, reserve, expires and category
//     (depthStrings), then its extra;
//   - a person draws its name (depthKeys), then its emailAddress,
//     creditCard, city and state (depthStrings), then its extra.
//
// The id and dateTime of every kind take no draw.
type drawDepth int

const (
	depthKeys drawDepth = iota
	depthPrice
	depthBidExtra
	depthStrings
	depthAll
)

// depthOf is the depth of a table's fields read: their names (any case),
// or nil for all.
func depthOf(table string, read []string) drawDepth {
	if read == nil {
		return depthAll
	}
	d, extra := depthKeys, false
	for _, name := range read {
		name = strings.ToLower(name)
		switch {
		case name == "extra":
			extra = true
		case name == "id", name == "datetime":
		case table == "bid" && name == "price":
			d = max(d, depthPrice)
		case table == "bid" && (name == "auction" || name == "bidder"):
		case table == "auction" && name == "seller":
		case table == "person" && name == "name":
		default:
			d = max(d, depthStrings)
		}
	}
	switch {
	case !extra:
		return d
	case table == "bid" && d < depthStrings:
		return depthBidExtra
	}
	return depthAll
}

// depth is how far the query reads the table's columns.
func (f *nexmarkFiller) depth() drawDepth {
	s := f.src
	if s.Read == nil {
		return depthAll
	}
	var read []string
	for i, c := range s.Columns {
		if s.Read[i] {
			read = append(read, Columns(f.table)[c].Name)
		}
	}
	return depthOf(f.table, read)
}
