package wsql

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"time"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/planner"
	"github.com/wsql/wsql/planner/setting"
)

// defaultCheckpointInterval applies when a directory is set without an
// interval.
const defaultCheckpointInterval = 10 * time.Second

// WithCheckpointDir makes the engine's queries take checkpoints into dir
// and resume from them ('execution.checkpointing.dir'; SET changes it per
// session). See docs/semantics.md, "Checkpoints and restarts".
func WithCheckpointDir(dir string) Option {
	return func(e *Engine) { e.settings.values[setting.CheckpointDir] = dir }
}

// checkpointing prepares the checkpoints of the n-th query of a Run: nil
// when checkpoints are off. The caller releases the checkpoint file
// (doneCheckpointing) when the query ends. Each query has its own file in the directory,
// named by what identifies it: its plan (the query, the tables it reads
// and their options) and its place in the script. A checkpoint that
// exists is loaded whole, or refused with the reason.
func (r *runner) checkpointing(p *planner.Plan, n int) (*exec.Checkpointing, error) {
	dir, interval, err := r.checkpointSettings(p)
	if dir == "" || err != nil {
		return nil, err
	}
	query := queryID(p, n)
	name := "query-" + strconv.Itoa(n) + "-" + query[:12] + ".ckpt"
	path := checkpoint.Join(dir, name)
	return r.openCheckpoint(path, query, interval, func() error { return changedQuery(dir, n, name) })
}

// checkpointSettings are the checkpoint location (a directory, made if
// missing, or an object store's s3:// prefix) and interval; "" when
// checkpoints are off.
func (r *runner) checkpointSettings(p *planner.Plan) (string, time.Duration, error) {
	dir, _ := r.e.settings.get(setting.CheckpointDir)
	if dir == "" {
		if _, ok := r.e.settings.get(setting.CheckpointInterval); ok {
			return "", 0, fmt.Errorf("'%s' is set but '%s' is not: say where checkpoints go", setting.CheckpointInterval, setting.CheckpointDir)
		}
		return "", 0, nil
	}
	if err := checkpointableFunctions(p); err != nil {
		return "", 0, err
	}
	interval := defaultCheckpointInterval
	if v, ok := r.e.settings.get(setting.CheckpointInterval); ok {
		interval, _ = setting.ParseCheckpointInterval(v) // checked by SET
	}
	if err := checkpoint.MakeDir(dir); err != nil {
		return "", 0, fmt.Errorf("checkpoint directory: %w", err)
	}
	return dir, interval, nil
}

// queryID identifies the n-th query of a run in its checkpoints.
func queryID(p *planner.Plan, n int) string {
	sum := sha256.Sum256([]byte(p.Identity() + "\x00query " + strconv.Itoa(n)))
	return hex.EncodeToString(sum[:])
}

// openCheckpoint locks the checkpoint file at path and loads it;
// changed, when there is none, says whether one of the query as it was
// before a change is there instead.
func (r *runner) openCheckpoint(path, query string, interval time.Duration, changed func() error) (*exec.Checkpointing, error) {
	if _, busy := r.e.checkpointing.LoadOrStore(path, (*checkpoint.FileLock)(nil)); busy {
		return nil, fmt.Errorf("this query is already running with the checkpoint %s: it can run once at a time", path)
	}
	lock, err := lockCheckpoint(path)
	if err != nil {
		r.e.checkpointing.Delete(path)
		return nil, err
	}
	r.e.checkpointing.Store(path, lock)
	snap, err := checkpoint.Load(path)
	if errors.Is(err, fs.ErrNotExist) {
		snap, err = nil, nil
		if err = changed(); err != nil {
			err = fmt.Errorf("%w: %w", checkpoint.ErrIncompatible, err)
		}
	} else if err != nil {
		err = fmt.Errorf("%w; remove it to start the query afresh", err)
	}
	if err != nil {
		r.release(path)
		return nil, err
	}
	return &exec.Checkpointing{Path: path, Interval: interval, Query: query, Restore: snap}, nil
}

// doneCheckpointing lets another run use the query's checkpoint file.
func (r *runner) doneCheckpointing(cp *exec.Checkpointing) {
	if cp != nil {
		r.release(cp.Path)
	}
}

// release unlocks a checkpoint file and forgets it.
func (r *runner) release(path string) {
	if l, ok := r.e.checkpointing.LoadAndDelete(path); ok {
		_ = l.(checkpoint.Unlocker).Unlock()
	}
}
