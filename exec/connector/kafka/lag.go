package kafka

import (
	"fmt"

	"github.com/wsql/wsql/exec/progress"
)

var _ progress.LagReporter = (*reader)(nil)

// SplitLags is each partition's consumer lag: its high watermark at the
// last poll that returned it minus the next offset handed out. Partitions
// no poll has returned yet, and those a bounded read has ended, are left
// out: their lag is not known, or no longer read.
func (r *reader) SplitLags() []progress.SplitLag {
	var out []progress.SplitLag
	for i, sp := range r.splits {
		if !sp.highSeen || sp.ended {
			continue
		}
		out = append(out, progress.SplitLag{
			Split:   i,
			Name:    fmt.Sprintf("%s/%d", sp.topic, sp.partition),
			Records: max(0, sp.high-sp.next),
		})
	}
	return out
}

// noteHigh keeps the high watermark a poll returned for the partition
// (-1 when the fetch did not say).
func (sp *split) noteHigh(hw int64) {
	if hw >= 0 {
		sp.high, sp.highSeen = hw, true
	}
}
