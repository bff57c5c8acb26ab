package filesystem

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/checkpoint"
)

// A script's second INSERT into a directory names its part files
// part-1-NNNNNN and owns them under its own record, .wsql-owner-1.csv; a
// fresh start or a restore of either INSERT deletes and checks its own
// files only, and another query is refused the second INSERT's files as
// it is the first's.
func TestPartFileWriterOfALaterInsert(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	recs := partBatches(mem, 2, 3, 4)
	defer releasePartBatches(recs)
	dir := t.TempDir()
	sink := partSink(dir, "csv")
	owners := []sinkOwner{
		{Query: "q1", Checkpoint: filepath.Join(dir, "query-1.ckpt")},
		{Query: "q2", Checkpoint: filepath.Join(dir, "query-2.ckpt")},
	}
	write := func(nth int, restore *checkpoint.Snapshot, rec int) *checkpoint.Snapshot {
		w, err := sink.CreateOwned(nil, restore, owners[nth], nth)
		require.NoError(t, err)
		require.NoError(t, w.WriteBatch(recs[rec]))
		snap := ownedCheckpoint(t, w)
		require.NoError(t, w.Commit())
		require.NoError(t, w.Close())
		return snap
	}
	first := write(0, nil, 0)
	second := write(1, nil, 1)
	require.Equal(t, []string{".wsql-owner-1.csv", ".wsql-owner.csv", "part-000000.csv", "part-1-000000.csv"}, dirNames(t, dir))
	// an in-progress file of each, as a crash leaves them
	for _, name := range []string{".part-000001.csv.inprogress", ".part-1-000001.csv.inprogress"} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("torn\n"), 0o644))
	}
	write(1, second, 2) // restored: its own in-progress file goes
	require.Equal(t, []string{".part-000001.csv.inprogress", ".wsql-owner-1.csv", ".wsql-owner.csv", "part-000000.csv", "part-1-000000.csv", "part-1-000001.csv"}, dirNames(t, dir))
	w, err := sink.CreateOwned(nil, first, owners[0], 0) // the first finished, restored
	require.NoError(t, err)
	require.NoError(t, w.Close())
	require.Equal(t, []string{".wsql-owner-1.csv", ".wsql-owner.csv", "part-000000.csv", "part-1-000000.csv", "part-1-000001.csv"}, dirNames(t, dir))
	b, err := os.ReadFile(filepath.Join(dir, "part-000000.csv"))
	require.NoError(t, err)
	require.Equal(t, uninterrupted(t, "csv", recs[:1]), string(b))

	_, err = sink.CreateOwned(nil, nil, sinkOwner{Query: "q3", Checkpoint: filepath.Join(dir, "q3.ckpt")}, 1)
	require.EqualError(t, err, "filesystem sink: "+dir+" holds the committed output of another query (part-1-000000.csv, its checkpoint is "+owners[1].Checkpoint+"): starting this query afresh would delete it; move that output away (its part files and .wsql-owner-1.csv), or write this query to another 'path'")

	w, err = sink.CreateOwned(nil, nil, owners[0], 0) // the first afresh
	require.NoError(t, err)
	require.NoError(t, w.Close())
	require.Equal(t, []string{".wsql-owner-1.csv", ".wsql-owner.csv", "part-1-000000.csv", "part-1-000001.csv"}, dirNames(t, dir), "the second INSERT's files stay")
	w, err = sink.CreateOwned(nil, second, owners[1], 1) // the second's older checkpoint still holds
	require.NoError(t, err)
	require.NoError(t, w.Close())
}

// Without checkpoints the nth INSERT into a directory writes part-<nth>;
// a path that is a file takes one INSERT.
func TestFileSinkNthInsert(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	recs := partBatches(mem, 2, 3)
	defer releasePartBatches(recs)
	dir := t.TempDir()
	for nth, rec := range recs {
		w, err := partSink(dir, "json").CreateNth(nil, nth)
		require.NoError(t, err)
		require.NoError(t, w.WriteBatch(rec))
		require.NoError(t, w.Close())
	}
	require.Equal(t, []string{"part-0.json", "part-1.json"}, dirNames(t, dir))
	file := filepath.Join(dir, "out.json")
	_, err := partSink(file, "json").CreateNth(nil, 1)
	require.ErrorContains(t, err, "filesystem sink: "+file+" is not a directory, so it cannot take the rows of a second INSERT")
	_, err = os.Stat(file)
	require.True(t, os.IsNotExist(err))
}
