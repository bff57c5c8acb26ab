package filesystem

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
)

// The part files of a directory belong to one checkpointed query at a
// time, so that a checkpoint never resumes over output another query wrote
// since (the two outputs would mix) and a fresh start never deletes
// another query's committed output.
//
// Ownership covers exactly the files one writer commits and deletes: the
// part files of the sink's format with the writer's prefix, those of the
// script's first INSERT into the directory (`part-NNNNNN.<format>`) or of
// its nth (`part-<n>-NNNNNN.<format>`), so the INSERTs of one script into
// one directory each own their own files. Their owner is recorded in the
// directory, in `.wsql-owner.<format>` for the first INSERT's files and
// `.wsql-owner-<n>.<format>` for the nth's (hidden, so wsql does not read
// it as input): a random token chosen when the query starts afresh, the
// query's identity and its checkpoint file. The token and the size of
// every part file the query has ended go into each of its checkpoints
// (part "sink-owner"). A restore checks that the directory still has the
// checkpoint's token and holds each part file the checkpoint covers with
// the size it had; anything else is refused with the owner named. While
// the query runs it holds a flock(2) lock on the directory, so a second
// writer is refused at once; the writer's Close releases it, before the
// script's next INSERT opens the directory.
const sinkOwnerHead = "wsql sink directory owner"

// ownerFile is the path of the owner record of w's part files: it
// follows their prefix.
func (w *partFileWriter) ownerFile() string {
	name := ".wsql-owner." + w.sink.Format
	if w.nth > 0 {
		name = ".wsql-owner-" + strconv.Itoa(w.nth) + "." + w.sink.Format
	}
	return filepath.Join(w.dir, name)
}

// sinkOwner is the query claiming a part-file directory.
type sinkOwner struct {
	Query      string // the query's identity (Checkpointing.Query)
	Checkpoint string // its checkpoint file
}

// sinkOwnerRecord is what `.wsql-owner` holds.
type sinkOwnerRecord struct {
	Token, Query, Checkpoint string
}

// sinkOwnership is a partFileWriter's claim on its directory.
type sinkOwnership struct {
	owner sinkOwner
	token string
	lock  *checkpoint.FileLock
	// sizes are the sizes of the part files numbered below the writer's
	// next number, by number: each ended (pending or committed) once.
	sizes []int64
	// legacy: the checkpoint restored predates owner records; rewrite:
	// the owner file is to be (re)written once the directory is the run's.
	legacy, rewrite bool
}

// CreateOwned opens the sink for a checkpointed run of the script's nth
// INSERT (from 0) into the sink's directory as CreateCommitting does,
// with the part files of that INSERT (`part-<nth>-NNNNNN.<format>` from
// the second on), claiming them for owner. restore is the checkpoint
// being restored, nil on a fresh start.
//
// A fresh start is refused while another query's committed part files
// of the INSERT's prefix are in the directory (the same query with the
// same checkpoint file may start over: its checkpoint was removed to do
// so). A restore is refused unless the directory is still the
// checkpoint's: the same token, and each part file the checkpoint covers
// present with the size it had when it ended.
func (s *fileSink) CreateOwned(loc *time.Location, restore *checkpoint.Snapshot, owner sinkOwner, nth int) (*partFileWriter, error) {
	if abs, err := filepath.Abs(owner.Checkpoint); err == nil && !checkpoint.InObjectStore(owner.Checkpoint) {
		owner.Checkpoint = abs
	}
	own := &sinkOwnership{owner: owner}
	var state, ownerState *checkpoint.Decoder
	if restore != nil {
		state = exec.SinkState(restore)
		if state == nil {
			return nil, fmt.Errorf("%w: %s has no sink-files state", checkpoint.ErrIncompatible, owner.Checkpoint)
		}
		if b, ok := restore.Parts["sink-owner"]; ok {
			ownerState = checkpoint.NewDecoder(b)
		}
	}
	w, err := s.createCommitting(loc, state, nth, own, ownerState)
	if err != nil {
		return nil, err
	}
	for name, d := range map[string]*checkpoint.Decoder{"sink-files": state, "sink-owner": ownerState} {
		if d == nil {
			continue
		}
		if err := d.Finish(); err != nil {
			w.Close()
			return nil, fmt.Errorf("checkpoint %s: the sink's %s state: %w", owner.Checkpoint, name, err)
		}
	}
	return w, nil
}

// claim locks the directory and checks that the run may write it: on a
// fresh start (restore false) that no other query's output is there, on a
// restore that the directory holds what the checkpoint covers. state is
// the checkpoint's "sink-owner" part (nil when the checkpoint predates
// it). It runs before the writer deletes or commits anything.
func (o *sinkOwnership) claim(w *partFileWriter, restore bool, pending []uint64, state *checkpoint.Decoder) error {
	lock, err := checkpoint.LockDir(w.dir)
	if err != nil {
		var locked *checkpoint.LockedError
		if errors.As(err, &locked) {
			return fmt.Errorf("filesystem sink: %s is being written by another run: a sink directory has one writer at a time; wait for that run to end, or write this query to another 'path'", w.dir)
		}
		return fmt.Errorf("filesystem sink: %w", err)
	}
	o.lock = lock
	rec, err := readSinkOwner(w.ownerFile())
	if err != nil {
		return err
	}
	if !restore {
		o.rewrite = true
		return o.claimFresh(w, rec)
	}
	o.legacy, o.rewrite = state == nil, state == nil || rec == nil
	if state != nil {
		o.token = state.String()
		o.sizes = checkpoint.ReadInts[int64](state)
		if err := state.Err(); err != nil {
			return fmt.Errorf("filesystem sink: state of %s: %w", w.sink.String(), err)
		}
		if uint64(len(o.sizes)) != w.next {
			return fmt.Errorf("filesystem sink: state of %s: %w", w.sink.String(),
				fmt.Errorf("%d part sizes for %d parts", len(o.sizes), w.next))
		}
	}
	switch {
	case o.legacy && rec != nil && rec.Query == o.owner.Query && rec.Checkpoint == o.owner.Checkpoint:
		// claimed by this query's own earlier resume of the same checkpoint
	case rec != nil && rec.Token != o.token:
		whose := fmt.Sprintf("another query (its checkpoint is %s)", rec.Checkpoint)
		if rec.Query == o.owner.Query {
			whose = fmt.Sprintf("another run of this query (with the checkpoint %s)", rec.Checkpoint)
		}
		return fmt.Errorf("filesystem sink: %s no longer holds what the checkpoint %s committed: %s has written it since, and resuming would mix the two outputs; to run this query again remove its checkpoint and either move that output away or write this query to another 'path'",
			w.dir, o.owner.Checkpoint, whose)
	case rec == nil && state != nil && w.next > 0:
		return fmt.Errorf("filesystem sink: %s no longer holds what the checkpoint %s committed: its owner record %s is gone (was the directory replaced?); put the directory back as it was, or remove the checkpoint to start the query afresh",
			w.dir, o.owner.Checkpoint, filepath.Base(w.ownerFile()))
	}
	return o.verify(w, pending)
}

// claimFresh refuses to take over another query's committed output, then
// chooses the run's token.
func (o *sinkOwnership) claimFresh(w *partFileWriter, rec *sinkOwnerRecord) error {
	if rec != nil && (rec.Query != o.owner.Query || rec.Checkpoint != o.owner.Checkpoint) {
		parts, err := w.committedPartNames()
		if err != nil {
			return err
		}
		if len(parts) > 0 {
			whose := "another query"
			if rec.Query == o.owner.Query {
				whose = "this query run with another checkpoint directory"
			}
			return fmt.Errorf("filesystem sink: %s holds the committed output of %s (%s, its checkpoint is %s): starting this query afresh would delete it; move that output away (its part files and %s), or write this query to another 'path'",
				w.dir, whose, parts[0], rec.Checkpoint, filepath.Base(w.ownerFile()))
		}
	}
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return fmt.Errorf("filesystem sink: %w", err)
	}
	o.token = hex.EncodeToString(b[:])
	return nil
}

// verify checks that each part the checkpoint covers is in the directory
// (committed, or pending: committed or still in progress) with the size
// it had when it ended.
func (o *sinkOwnership) verify(w *partFileWriter, pending []uint64) error {
	isPending := make(map[uint64]bool, len(pending))
	for _, p := range pending {
		isPending[p] = true
	}
	for n := range w.next {
		st, err := os.Lstat(w.path(n, false))
		if errors.Is(err, fs.ErrNotExist) && isPending[n] {
			st, err = os.Lstat(w.path(n, true))
		}
		if errors.Is(err, fs.ErrNotExist) {
			if isPending[n] {
				continue // restore says what is gone
			}
			return fmt.Errorf("filesystem sink: %s no longer holds what the checkpoint %s committed: %s is gone; put it back, or remove the checkpoint to start the query afresh",
				w.dir, o.owner.Checkpoint, w.displayName(n, false))
		}
		if err != nil {
			return fmt.Errorf("filesystem sink: %w", err)
		}
		if !o.legacy && st.Size() != o.sizes[n] {
			return fmt.Errorf("filesystem sink: %s no longer holds what the checkpoint %s committed: %s has %d bytes, the checkpoint covers %d; put the directory back as it was, or remove the checkpoint to start the query afresh",
				w.dir, o.owner.Checkpoint, st.Name(), st.Size(), o.sizes[n])
		}
	}
	return nil
}

// record writes the owner file once the directory is the run's: on a
// fresh start, on a restore whose record is missing (nothing committed
// yet), and on a restore of a checkpoint that predates owner records
// (whose part sizes are then read from the directory, under a new token).
func (o *sinkOwnership) record(w *partFileWriter) error {
	if !o.rewrite {
		return nil // the directory's record is the checkpoint's
	}
	if o.legacy {
		var b [16]byte
		if _, err := rand.Read(b[:]); err != nil {
			return fmt.Errorf("filesystem sink: %w", err)
		}
		o.token = hex.EncodeToString(b[:])
		o.sizes = make([]int64, w.next)
		for n := range w.next {
			st, err := os.Lstat(w.path(n, false))
			if err != nil {
				return fmt.Errorf("filesystem sink: %w", err)
			}
			o.sizes[n] = st.Size()
		}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\ntoken: %s\nquery: %s\ncheckpoint: %s\n", sinkOwnerHead, o.token, o.owner.Query, o.owner.Checkpoint)
	path := w.ownerFile()
	tmp := path + ".tmp"
	err := writeFileSynced(tmp, b.Bytes())
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err == nil {
		err = checkpoint.SyncDir(w.dir)
	}
	if err != nil {
		return fmt.Errorf("filesystem sink: recording the owner of %s: %w", w.dir, err)
	}
	return nil
}

// ended records the size of part n, just ended (fsynced).
func (o *sinkOwnership) ended(f *os.File, n uint64) error {
	st, err := f.Stat()
	if err != nil {
		return err
	}
	// a rolled part of one partition may end before a part of another
	// opened earlier: each size goes at its part's number
	for uint64(len(o.sizes)) <= n {
		o.sizes = append(o.sizes, 0)
	}
	o.sizes[n] = st.Size()
	return nil
}

// state writes the checkpoint's "sink-owner" part.
func (o *sinkOwnership) state(e *checkpoint.Encoder) {
	e.String(o.token)
	checkpoint.Ints(e, o.sizes)
}

// release unlocks the directory.
func (o *sinkOwnership) release() error {
	err := o.lock.Unlock()
	o.lock = nil
	return err
}

// readSinkOwner reads an owner record; nil when there is none.
func readSinkOwner(path string) (*sinkOwnerRecord, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("filesystem sink: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	rec := &sinkOwnerRecord{}
	head := false
	for sc.Scan() {
		line := sc.Text()
		if !head {
			head = line == sinkOwnerHead
			if !head {
				break
			}
			continue
		}
		key, value, _ := strings.Cut(line, ": ")
		switch key {
		case "token":
			rec.Token = value
		case "query":
			rec.Query = value
		case "checkpoint":
			rec.Checkpoint = value
		}
	}
	if !head || rec.Token == "" {
		return nil, fmt.Errorf("filesystem sink: %s is not an owner record wsql wrote; remove it if the directory belongs to no running or resumable query", path)
	}
	return rec, nil
}

// committedPartNames lists w's committed part files (its format and
// prefix) in the directory, and in its partition directories for a
// partitioned sink: those a fresh start would delete.
func (w *partFileWriter) committedPartNames() ([]string, error) {
	dirs := []string{w.dir}
	if w.sink.Partition != nil {
		var err error
		if dirs, err = partitionDirs(w.dir); err != nil {
			return nil, fmt.Errorf("filesystem sink: %w", err)
		}
	}
	var out []string
	for _, dir := range dirs {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return nil, fmt.Errorf("filesystem sink: %w", err)
		}
		for _, e := range entries {
			if !e.Type().IsRegular() {
				continue
			}
			if _, inProgress, ok := parsePartName(e.Name(), w.prefix(), w.sink.Format); ok && !inProgress {
				rel, _ := filepath.Rel(w.dir, filepath.Join(dir, e.Name()))
				out = append(out, filepath.ToSlash(rel))
			}
		}
	}
	return out, nil
}

// writeFileSynced writes b to a new file at path and fsyncs it.
func writeFileSynced(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
