package rankop

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/pipeline"
)

// Operator is a running rank: a Rank, or a WindowRank for a Config with
// a Window.
type Operator interface {
	pipeline.Operator
	Schema() *arrow.Schema
	Stats() Stats
	SnapshotState(e *checkpoint.Encoder) error
	RestoreState(d *checkpoint.Decoder) error
}

// New builds the running operator of cfg, sending results to out.
func New(cfg Config, mem memory.Allocator, out pipeline.Operator) (Operator, error) {
	if cfg.Window != nil {
		return NewWindowRank(cfg, mem, out)
	}
	return NewRank(cfg, mem, out)
}
