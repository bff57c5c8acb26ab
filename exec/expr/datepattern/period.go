package datepattern

// Period is the span, in milliseconds, over which the layout's text does
// not change: the text of ms depends only on FloorDiv(ms, Period()). A
// pattern of date letters only writes the same text all day, one with
// minutes and no seconds all minute; with fractions it is 1. A column of
// times in order repeats its texts run after run (DATE_FORMAT memoises
// on it).
func (l *Layout) Period() int64 {
	period := int64(msPerDay)
	for _, p := range l.parts {
		var span int64
		switch p.field {
		case 0, 'G', 'y', 'u', 'Y', 'M', 'L', 'Q', 'q', 'D', 'd', 'w', 'W', 'F', 'E', 'e', 'c':
			continue // literal text, or a field of the day
		case 'a', 'H', 'k', 'K', 'h':
			span = 3_600_000
		case 'm':
			span = 60_000
		case 's':
			span = 1000
		default: // S, n, N, A, and any letter not named here
			span = 1
		}
		period = min(period, span)
	}
	return period
}
