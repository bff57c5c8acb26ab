package filesystem

import (
	"fmt"
	"path/filepath"

	"github.com/wsql/wsql/checkpoint"
)

// DefaultSuccessFileName is Flink's 'sink.partition-commit.success-file.name'.
const DefaultSuccessFileName = "_SUCCESS"

// commit runs the partition commit policy on the partition dir (relative
// to root) whose files were just committed: with 'success-file' an empty
// success file is written (again, if it is there) into it, durably, as
// Flink's SuccessFileCommitPolicy does; without a policy nothing happens.
func (p *partitioning) commit(root, dir string) error {
	if p.SuccessFile == "" {
		return nil
	}
	full := filepath.Join(root, filepath.FromSlash(dir))
	if err := writeFileSynced(filepath.Join(full, p.SuccessFile), nil); err != nil {
		return fmt.Errorf("filesystem sink: committing partition %s: %w", dir, err)
	}
	if err := checkpoint.SyncDir(full); err != nil {
		return fmt.Errorf("filesystem sink: committing partition %s: %w", dir, err)
	}
	return nil
}
