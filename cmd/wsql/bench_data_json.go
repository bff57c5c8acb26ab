package main

import "strconv"

// benchJSON is the JSON-lines form of the workload, the same rows as the
// CSV with the same text for each value:
// `{"ts":"2024-03-01 08:59:59.985","key":"k141","value":328.91}`.
var benchJSON = benchFormat{ext: ".jsonl", appendRow: appendBenchJSONRow}

// appendBenchJSONRow appends r as a JSON object on one line.
func appendBenchJSONRow(line []byte, r benchRow) []byte {
	line = append(line, `{"ts":"`...)
	line = appendBenchTS(line, r)
	line = append(line, `","key":"k`...)
	line = strconv.AppendUint(line, r.key, 10)
	line = append(line, `","value":`...)
	line = appendBenchValue(line, r)
	return append(line, "}\n"...)
}
