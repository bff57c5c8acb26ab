package interval

import "strconv"

// FormatMonths prints a year-month interval as Flink's SQL would write it:
// INTERVAL '2' YEAR, INTERVAL '5' MONTH, INTERVAL '1-2' YEAR TO MONTH.
func FormatMonths(months int64) string {
	sign := ""
	if months < 0 {
		sign, months = "-", -months
	}
	y, m := months/12, months%12
	ys := strconv.FormatInt(y, 10)
	switch {
	case m == 0 && y != 0:
		return "INTERVAL '" + sign + ys + "' YEAR" + leadingPrecision(ys)
	case y == 0:
		ms := strconv.FormatInt(m, 10)
		return "INTERVAL '" + sign + ms + "' MONTH"
	}
	return "INTERVAL '" + sign + ys + "-" + strconv.FormatInt(m, 10) + "' YEAR" + leadingPrecision(ys) + " TO MONTH"
}
