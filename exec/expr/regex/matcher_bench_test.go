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

// BenchmarkFindAltAnchor: Nexmark q21's pattern over its bids' URLs, a
// start of \A or a byte, which only that byte's positions past 0 try.
func BenchmarkFindAltAnchor(b *testing.B) {
	re, err := Compile(`(&|^)channel_id=([^&]*)`)
	if err != nil {
		b.Fatal(err)
	}
	rows := make([]string, 1024)
	for i := range rows {
		rows[i] = fmt.Sprintf("https://www.nexmark.com/abc%d/def/item.htm?query=1&channel_id=%d", i%97, i*7919%10000)
	}
	m := re.NewMatcher()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		s := rows[i&1023]
		m.Reset()
		if m.Find(s) {
			m.Group(2)
		}
	}
}
