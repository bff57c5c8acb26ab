package format

import "github.com/apache/arrow-go/v18/arrow"

// AppendRow appends row i of rec's first columns (at most) as text of the
// input format: a JSON object when json is set, else CSV fields. It is how
// a row the decoders read well but a later check refused is written to the
// bad-rows file, so the line reads like the input it came from.
func AppendRow(dst []byte, rec arrow.RecordBatch, i, columns int, json bool, std TimestampStandard) []byte {
	b := dst
	for c := range min(columns, int(rec.NumCols())) {
		arr := rec.Column(c)
		if json {
			if c == 0 {
				b = append(b, '{')
			} else {
				b = append(b, ',')
			}
			b = AppendJSONString(b, rec.Schema().Field(c).Name)
			b = append(b, ':')
			if arr.IsNull(i) {
				b = append(b, "null"...)
			} else {
				b = JSONValueAppender(arr, nil, std)(b, i)
			}
			continue
		}
		if c > 0 {
			b = append(b, ',')
		}
		if arr.IsValid(i) {
			b = AppendCSVField(b, AppendValue(nil, arr, i, nil))
		}
	}
	if json {
		b = append(b, '}')
	}
	return b
}
