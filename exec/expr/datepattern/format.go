package datepattern

import (
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/rowtime"
)

// msPerDay is the milliseconds of a day.
const msPerDay = 86_400_000

// Names as Java's DateTimeFormatter writes them in its default (English)
// locale, as Flink's DATE_FORMAT does.
var (
	monthNames = [12]string{"January", "February", "March", "April", "May", "June", "July",
		"August", "September", "October", "November", "December"}
	dayNames     = [7]string{"Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"}
	quarterNames = [4]string{"1st quarter", "2nd quarter", "3rd quarter", "4th quarter"}
)

// textByWidth writes a name as a letter of width w asks: 3 or fewer the
// abbreviation (Mar, Tue), 4 the full name, 5 the first letter.
func textByWidth(dst []byte, name string, w int) []byte {
	switch {
	case w == 4:
		return append(dst, name...)
	case w == 5:
		return append(dst, name[0])
	}
	return append(dst, name[:3]...)
}

// format writes wall-clock milliseconds ms in the layout. The calendar is
// computed once per value, with no allocation: dst is the caller's buffer.
func (l *Layout) Append(dst []byte, ms int64) []byte {
	days := rowtime.FloorDiv(ms, msPerDay)
	msOfDay := ms - days*msPerDay
	y, mo, d := rowtime.CivilFromDays(days)
	dow := rowtime.FloorMod(days+4, 7) // 0 = Sunday; 1970-01-01 was a Thursday
	hour := msOfDay / 3_600_000
	for _, p := range l.parts {
		var v int64
		switch p.field {
		case 0:
			dst = append(dst, p.lit...)
			continue
		case 'G':
			era := "AD"
			if y <= 0 {
				era = "BC"
			}
			switch {
			case p.width == 4 && y > 0:
				era = "Anno Domini"
			case p.width == 4:
				era = "Before Christ"
			case p.width == 5:
				era = era[:1]
			}
			dst = append(dst, era...)
			continue
		case 'y', 'u':
			v = y
			if p.field == 'y' && y <= 0 {
				v = 1 - y // year of era
			}
			if p.width == 2 {
				v = rowtime.FloorMod(v, 100)
			}
		case 'Y':
			v, _ = weekOfYear(days, dow)
			if p.width == 2 {
				v = rowtime.FloorMod(v, 100)
			}
		case 'M', 'L':
			if p.width >= 3 {
				dst = textByWidth(dst, monthNames[mo-1], p.width)
				continue
			}
			v = mo
		case 'Q', 'q':
			q := (mo-1)/3 + 1
			switch p.width {
			case 3:
				dst = append(dst, 'Q', byte('0'+q))
				continue
			case 4:
				dst = append(dst, quarterNames[q-1]...)
				continue
			}
			v = q
		case 'D':
			v = days - rowtime.DaysFromCivil(y, 1, 1) + 1
		case 'd':
			v = d
		case 'w':
			_, v = weekOfYear(days, dow)
		case 'W':
			// the week of the month, weeks starting on Sunday
			v = (d-1+rowtime.FloorMod(dow-(d-1), 7))/7 + 1
		case 'F':
			// the day of the week counted from the month's first day, as
			// Java 11 and 17 (Flink's) read F
			v = (d-1)%7 + 1
		case 'E':
			dst = textByWidth(dst, dayNames[dow], max(p.width, 3))
			continue
		case 'e', 'c':
			if p.width >= 3 {
				dst = textByWidth(dst, dayNames[dow], p.width)
				continue
			}
			v = dow + 1 // Sunday = 1
		case 'a':
			if hour < 12 {
				dst = append(dst, "AM"...)
			} else {
				dst = append(dst, "PM"...)
			}
			continue
		case 'H':
			v = hour
		case 'k':
			v = hour
			if v == 0 {
				v = 24
			}
		case 'K':
			v = hour % 12
		case 'h':
			v = hour % 12
			if v == 0 {
				v = 12
			}
		case 'm':
			v = msOfDay / 60_000 % 60
		case 's':
			v = msOfDay / 1000 % 60
		case 'S':
			// a fraction of p.width digits: milliseconds, then zeros
			frac := msOfDay % 1000
			digits := [3]byte{byte('0' + frac/100), byte('0' + frac/10%10), byte('0' + frac%10)}
			for k := range p.width {
				if k < 3 {
					dst = append(dst, digits[k])
				} else {
					dst = append(dst, '0')
				}
			}
			continue
		case 'n':
			v = msOfDay % 1000 * 1_000_000
		case 'N':
			v = msOfDay * 1_000_000
		case 'A':
			v = msOfDay
		}
		dst = format.AppendZeroPadInt(dst, v, p.width)
	}
	return dst
}

// weekOfYear is the week-based year and week of the day number days whose
// day of the week is dow (0 = Sunday), by the en-US rule Java uses: weeks
// start on Sunday and week 1 is the one holding January 1st, so the days
// of late December in that week belong to the next year.
func weekOfYear(days, dow int64) (year, week int64) {
	sunday := days - dow
	year, _, _ = rowtime.CivilFromDays(sunday + 6)
	jan1 := rowtime.DaysFromCivil(year, 1, 1)
	week1 := jan1 - rowtime.FloorMod(jan1+4, 7)
	return year, (sunday-week1)/7 + 1
}
