package sql

import "strings"

// LiteralPrecision is the precision of a TIME or TIMESTAMP literal: the
// digits of its fraction, as Flink types TIME '12:00:01.5' TIME(1) and
// TIMESTAMP '2024-01-01 00:00:00.123456' TIMESTAMP(6). A TIMESTAMP literal
// is at least TIMESTAMP(3), a rowtime's precision; a DATE has none (-1).
func LiteralPrecision(typeName, text string) int {
	if typeName == "DATE" {
		return -1
	}
	text = strings.TrimSpace(text)
	digits := 0
	if dot := strings.LastIndexByte(text, '.'); dot >= 0 && dot > strings.LastIndexByte(text, ':') {
		for _, c := range text[dot+1:] {
			if c < '0' || c > '9' {
				break
			}
			digits++
		}
	}
	digits = min(digits, 9)
	if typeName == "TIMESTAMP" {
		return max(digits, 3)
	}
	return min(digits, 3)
}
