package wsql

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/wsql/wsql/checkpoint"
)

// changedQuery refuses to start the n-th query of a script afresh when
// the checkpoint directory holds a checkpoint of the n-th query with
// another identity (name is the file the query's identity names): the
// query was changed since that checkpoint was taken, in its SQL, a table
// it reads or writes, or a setting that changes its results. Starting
// afresh would silently drop the old checkpoint's progress, and resuming
// it would read on with the new semantics; the user decides.
func changedQuery(dir string, n int, name string) error {
	names, err := checkpoint.List(dir)
	if err != nil {
		return fmt.Errorf("checkpoint directory: %w", err)
	}
	prefix := "query-" + strconv.Itoa(n) + "-"
	for _, other := range names {
		if !strings.HasPrefix(other, prefix) || !strings.HasSuffix(other, ".ckpt") || other == name {
			continue
		}
		return fmt.Errorf("the checkpoint %s is of query %d as it was before a change: its SQL, a table it reads or writes (a column, the watermark or a WITH option such as 'csv.field-delimiter') or a setting that changes its results (such as 'table.local-time-zone' or an emit setting) is not what it was, so the checkpoint cannot resume it; undo the change to resume, or remove %s to start query %d afresh",
			checkpoint.Join(dir, other), n, other, n)
	}
	return nil
}
