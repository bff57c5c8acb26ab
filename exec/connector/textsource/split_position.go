package textsource

import (
	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/format"
)

// saveSplitPosition writes p into a checkpoint.
func saveSplitPosition(e *checkpoint.Encoder, p format.SplitPosition) {
	e.Int(p.Offset)
	e.Int(int64(p.Line))
	e.Int(p.Skipped)
	e.Bool(p.Started)
	e.Int(p.ChunkEnd)
}

// readSplitPosition reads what saveSplitPosition wrote.
func readSplitPosition(d *checkpoint.Decoder) format.SplitPosition {
	p := format.SplitPosition{Offset: d.Int(), Line: int(d.Int()), Skipped: d.Int(), Started: d.Bool(), ChunkEnd: d.Int()}
	if p.Offset < 0 || p.Line < 0 || p.Skipped < 0 || (p.ChunkEnd != 0 && p.ChunkEnd < p.Offset) {
		d.Fail("a split at position %+v", p)
	}
	return p
}
