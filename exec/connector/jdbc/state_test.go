package jdbc

import (
	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
)

// snapshotOf is a checkpoint of id holding the writer's state.
func snapshotOf(w exec.CommittingWriter, id uint64) *checkpoint.Snapshot {
	var e checkpoint.Encoder
	w.State(&e)
	return &checkpoint.Snapshot{ID: id, Parts: map[string][]byte{"sink-files": e.Data()}}
}
