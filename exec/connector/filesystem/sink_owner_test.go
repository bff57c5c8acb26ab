package filesystem

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
)

// ownedCheckpoint is the snapshot a checkpoint of w holds for its sink.
func ownedCheckpoint(t *testing.T, w *partFileWriter) *checkpoint.Snapshot {
	t.Helper()
	snap := &checkpoint.Snapshot{Parts: map[string][]byte{"sink-files": checkpointOf(t, w)}}
	var e checkpoint.Encoder
	require.True(t, w.OwnerState(&e))
	snap.Parts["sink-owner"] = e.Data()
	return snap
}

// One run writes a sink directory at a time: a second writer is refused
// while the first has it open, and may claim it once the first closed it
// without committing anything.
func TestSinkDirectoryHasOneWriterAtATime(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	recs := partBatches(mem, 3)
	defer releasePartBatches(recs)
	dir := t.TempDir()
	sink := partSink(dir, "csv")
	first, err := sink.CreateOwned(nil, nil, sinkOwner{Query: "q1", Checkpoint: filepath.Join(dir, "q1.ckpt")}, 0)
	require.NoError(t, err)
	require.NoError(t, first.WriteBatch(recs[0]))

	_, err = sink.CreateOwned(nil, nil, sinkOwner{Query: "q2", Checkpoint: filepath.Join(dir, "q2.ckpt")}, 0)
	require.EqualError(t, err, "filesystem sink: "+dir+" is being written by another run: a sink directory has one writer at a time; wait for that run to end, or write this query to another 'path'")
	require.Contains(t, dirNames(t, dir), ".part-000000.csv.inprogress", "the refused writer deleted nothing")

	require.NoError(t, first.Close())
	second, err := sink.CreateOwned(nil, nil, sinkOwner{Query: "q2", Checkpoint: filepath.Join(dir, "q2.ckpt")}, 0)
	require.NoError(t, err, "nothing of q1 was committed")
	require.NoError(t, second.Close())
}

// A checkpoint taken before owner records restores as it did, and the
// run claims the directory; a restore by the claimed checkpoint then
// checks it.
func TestSinkOwnerOfAnOlderCheckpoint(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	recs := partBatches(mem, 3, 5)
	defer releasePartBatches(recs)
	dir := t.TempDir()
	sink := partSink(dir, "csv")
	w, err := sink.CreateCommitting(nil, nil)
	require.NoError(t, err)
	require.NoError(t, w.WriteBatch(recs[0]))
	old := &checkpoint.Snapshot{Parts: map[string][]byte{"sink-files": checkpointOf(t, w)}}
	require.NoError(t, w.Close())

	owner := sinkOwner{Query: "q1", Checkpoint: filepath.Join(dir, "q1.ckpt")}
	w, err = sink.CreateOwned(nil, old, owner, 0)
	require.NoError(t, err)
	require.Equal(t, []string{".wsql-owner.csv", "part-000000.csv"}, dirNames(t, dir))
	require.NoError(t, w.WriteBatch(recs[1]))
	snap := ownedCheckpoint(t, w)
	require.NoError(t, w.Commit())
	require.NoError(t, w.Close())
	require.Equal(t, uninterrupted(t, "csv", recs), committed(t, dir, "csv", true))

	// the older checkpoint again (a crash before the next one): the record
	// is this query's own
	w, err = sink.CreateOwned(nil, old, owner, 0)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	require.Equal(t, []string{".wsql-owner.csv", "part-000000.csv"}, dirNames(t, dir))

	// a checkpoint with a token the directory no longer has
	w, err = sink.CreateOwned(nil, snap, owner, 0)
	require.ErrorContains(t, err, "no longer holds what the checkpoint "+owner.Checkpoint+" committed: another run of this query (with the checkpoint "+owner.Checkpoint+") has written it since")
	require.Nil(t, w)

	// an owner record wsql did not write is refused, not overwritten
	require.NoError(t, os.WriteFile(filepath.Join(dir, ".wsql-owner.csv"), []byte("mine\n"), 0o644))
	_, err = sink.CreateOwned(nil, nil, owner, 0)
	require.ErrorContains(t, err, ".wsql-owner.csv is not an owner record wsql wrote")
}

// A fresh start deletes only its own earlier output: another query's
// committed part files of its format are refused, naming the owner's
// checkpoint; the same query with the same checkpoint file (whose
// checkpoint was removed to start over) replaces its own.
func TestFreshStartKeepsAnotherQuerysOutput(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	recs := partBatches(mem, 3, 5)
	defer releasePartBatches(recs)
	dir := t.TempDir()
	sink := partSink(dir, "csv")
	q1 := sinkOwner{Query: "q1", Checkpoint: filepath.Join(dir, "q1.ckpt")}
	w, err := sink.CreateOwned(nil, nil, q1, 0)
	require.NoError(t, err)
	require.NoError(t, w.WriteBatch(recs[0]))
	ownedCheckpoint(t, w)
	require.NoError(t, w.Commit())
	require.NoError(t, w.Close())
	q1Output := committed(t, dir, "csv", true)

	_, err = sink.CreateOwned(nil, nil, sinkOwner{Query: "q2", Checkpoint: filepath.Join(dir, "q2.ckpt")}, 0)
	require.EqualError(t, err, "filesystem sink: "+dir+" holds the committed output of another query (part-000000.csv, its checkpoint is "+q1.Checkpoint+"): starting this query afresh would delete it; move that output away (its part files and .wsql-owner.csv), or write this query to another 'path'")
	_, err = sink.CreateOwned(nil, nil, sinkOwner{Query: "q1", Checkpoint: filepath.Join(dir, "elsewhere.ckpt")}, 0)
	require.ErrorContains(t, err, "holds the committed output of this query run with another checkpoint directory")
	require.Equal(t, q1Output, committed(t, dir, "csv", true))

	w, err = sink.CreateOwned(nil, nil, q1, 0)
	require.NoError(t, err, "q1 starting over")
	require.NoError(t, w.WriteBatch(recs[1]))
	ownedCheckpoint(t, w)
	require.NoError(t, w.Commit())
	require.NoError(t, w.Close())
	require.Equal(t, uninterrupted(t, "csv", recs[1:]), committed(t, dir, "csv", true))
}
