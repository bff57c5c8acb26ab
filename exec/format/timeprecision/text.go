package timeprecision

// Trim wraps app, the writer of a TIMESTAMP or TIME column's values in
// its unit's digits, to write them as Flink's TIMESTAMP(p) and TIME(p) do:
// trailing zeros of the fraction dropped down to p digits, so a value
// within p digits shows exactly p (Flink's DateTimeUtils keeps more only
// for a value finer than its type). p < 0 keeps app.
func Trim(app func(dst []byte, i int) []byte, p int) func(dst []byte, i int) []byte {
	if p < 0 {
		return app
	}
	return func(dst []byte, i int) []byte {
		start := len(dst)
		dst = app(dst, i)
		return TrimFraction(dst, start, p)
	}
}

// TrimFraction drops the trailing zeros of the fraction of the time in
// dst[start:] while it has more than p digits (and its '.' when none are
// left). A zone suffix (an ISO 'Z' or offset) stays after the fraction.
func TrimFraction(dst []byte, start, p int) []byte {
	dot := -1
	for i := len(dst) - 1; i >= start; i-- {
		if dst[i] == '.' {
			dot = i
			break
		}
		if dst[i] == ' ' || dst[i] == 'T' {
			return dst // no fraction
		}
	}
	if dot < 0 {
		return dst
	}
	end := dot + 1
	for end < len(dst) && dst[end] >= '0' && dst[end] <= '9' {
		end++
	}
	cut := end
	for cut-dot-1 > p && dst[cut-1] == '0' {
		cut--
	}
	if cut == dot+1 {
		cut = dot // no digit left: no '.'
	}
	if cut == end {
		return dst
	}
	n := copy(dst[cut:], dst[end:])
	return dst[:cut+n]
}
