package nexmark

import "github.com/wsql/wsql/exec/connector/generator"

// bidSize is the size Nexmark counts for a bid whose channel and url
// together have n bytes: four 8-byte values and the two strings.
func bidSize(n int) int { return 8 + 8 + 8 + n + 8 }

// nexmarkColdBidMinSize is the least size of a bid whose channel is not a
// hot one: "channel-" and one digit, and a url of two 3-letter words and
// one digit. It is at least the average bid size, so such a bid's extra is
// always empty (TestColdBidsHaveNoExtra).
const nexmarkColdBidMinSize = 8 + 8 + 8 + len("channel-0") +
	len(nexmarkURLPrefix) + 3 + len("/") + 3 + len(nexmarkURLQuery) + 1 + 8

// appendBidExtra appends the extra of a bid whose channel and url are not
// read, r at the draws after its price. Only a hot channel's bid can have
// an extra, sized by that channel's strings. Another's extra is empty and
// its url's words are its last draws, so they are not drawn: a third of
// the bid's draws, and the building of two strings nobody reads.
func appendBidExtra(b []byte, r *generator.PCG) []byte {
	if r.Mask(1) == 0 { // IntN(2): not a hot channel
		return b
	}
	e := hotBidExtras[r.Mask(nexmarkHotChannels-1)]
	if !e.some {
		return b
	}
	return appendDrawnLetters(b, r, e.base, e.span)
}

// hotBidExtra is how a hot channel's bid draws its extra: whether it has
// one, and its lengths (extraLengths), the same for every bid of the
// channel.
type hotBidExtra struct {
	some       bool
	base, span int
}

var hotBidExtras = func() (extras [nexmarkHotChannels]hotBidExtra) {
	for i := range extras {
		size := bidSize(len(nexmarkChannels[i]) + len(nexmarkHotURLs[i]))
		if size < nexmarkAvgBidSize {
			base, span := extraLengths(size, nexmarkAvgBidSize)
			extras[i] = hotBidExtra{some: true, base: base, span: span}
		}
	}
	return extras
}()
