package jdbc

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/windowop"
)

// appendRows is an append table's mode: every row is copied in. With
// checkpoints the copies go into the open transaction of the checkpoint
// (txn), committed when it is durable.
type appendRows struct {
	txn *transaction // nil without checkpoints: each flush commits
}

func (a *appendRows) row(w *sinkWriter, _ windowop.RowKind, cols []arrow.Array, i int) bool {
	w.appendRow(cols, i, 0)
	return true
}

func (a *appendRows) setup(ctx context.Context, w *sinkWriter) error {
	if a.txn != nil {
		return a.txn.open(ctx, w)
	}
	return nil
}

func (a *appendRows) reset() {}

func (a *appendRows) flush(ctx context.Context, w *sinkWriter) error {
	if err := w.copyIn(ctx, "COPY "+w.s.cfg.table+" ("+w.s.columnList()+") FROM STDIN (FORMAT binary)"); err != nil {
		return err
	}
	if a.txn != nil {
		a.txn.written = true
	}
	return nil
}
