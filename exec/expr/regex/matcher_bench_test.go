package regex

import (
	"fmt"
	"testing"
)

// BenchmarkFindGroup: the matcher alone, a first match and its group over
// short strings.
func BenchmarkFindGroup(b *testing.B) {
	re, err := Compile(`id=(\d+)`)
	if err != nil {
		b.Fatal(err)
	}
	rows := make([]string, 1024)
	for i := range rows {
		rows[i] = fmt.Sprintf("user%d GET /item?id=%d ok", i%97, i*7919%100000)
	}
	m := re.NewMatcher()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s := rows[i&1023]
		m.Reset()
		if m.Find(s) {
			m.Group(1)
		}
	}
}
