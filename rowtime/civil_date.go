package rowtime

// Civil dates in the proleptic Gregorian calendar, counted in days from
// 1970-01-01: the arithmetic the decoders use to read DATE and TIMESTAMP
// text and the expression kernels use to format, extract and build dates.

// DaysFromCivil counts days from 1970-01-01 to y-m-d (Howard Hinnant's
// days_from_civil).
func DaysFromCivil(y, m, d int64) int64 {
	if m <= 2 {
		y--
	}
	era := y
	if era < 0 {
		era -= 399
	}
	era /= 400
	yoe := y - era*400
	mp := (m + 9) % 12
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

// CivilFromDays turns days since 1970-01-01 into a date (Howard Hinnant's
// civil_from_days).
func CivilFromDays(days int64) (y, m, d int64) {
	z := days + 719468
	era := z
	if era < 0 {
		era -= 146096
	}
	era /= 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = doy - (153*mp+2)/5 + 1
	m = mp + 3
	if m > 12 {
		m -= 12
	}
	y = yoe + era*400
	if m <= 2 {
		y++
	}
	return y, m, d
}

// DaysInMonth is the number of days of month m (1 to 12) of year y.
func DaysInMonth(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
