package checkpoint

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestCodecRoundTrip(t *testing.T) {
	var e Encoder
	e.Uint(math.MaxUint64)
	e.Int(math.MinInt64)
	e.Float(-0.5)
	e.Bool(true)
	e.String("héllo")
	e.Bytes([]byte{0, 1, 2})
	Ints(&e, []int32{-1, 0, math.MaxInt32})
	Uints(&e, []uint32{0, math.MaxUint32})
	e.Floats([]float64{math.Inf(1), 1.25})
	e.Bools([]bool{false, true})

	d := NewDecoder(e.Data())
	require.Equal(t, uint64(math.MaxUint64), d.Uint())
	require.Equal(t, int64(math.MinInt64), d.Int())
	require.Equal(t, -0.5, d.Float())
	require.True(t, d.Bool())
	require.Equal(t, "héllo", d.String())
	require.Equal(t, []byte{0, 1, 2}, d.Bytes())
	require.Equal(t, []int32{-1, 0, math.MaxInt32}, ReadInts[int32](d))
	require.Equal(t, []uint32{0, math.MaxUint32}, ReadUints[uint32](d))
	require.Equal(t, []float64{math.Inf(1), 1.25}, d.Floats())
	require.Equal(t, []bool{false, true}, d.Bools())
	require.NoError(t, d.Finish())
}

func TestDecoderRefusesBadInput(t *testing.T) {
	var e Encoder
	Ints(&e, []int64{math.MaxInt64})
	d := NewDecoder(e.Data())
	ReadInts[int32](d)
	require.ErrorIs(t, d.Err(), ErrCorrupt, "a value too large for its type")

	d = NewDecoder([]byte{0xff, 0xff, 0xff, 0x0f}) // a huge length, nothing after it
	require.Nil(t, d.Bytes())
	require.ErrorIs(t, d.Err(), ErrCorrupt)

	d = NewDecoder([]byte{1, 2})
	d.Uint()
	require.ErrorIs(t, d.Finish(), ErrCorrupt, "bytes left over")
}

func TestSaveLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), "checkpoint")
	_, err := Load(path)
	require.ErrorIs(t, err, fs.ErrNotExist)

	s := &Snapshot{ID: 3, Query: "q", Parts: map[string][]byte{"a": {1}, "b": nil}}
	require.NoError(t, Save(path, s))
	got, err := Load(path)
	require.NoError(t, err)
	require.Equal(t, uint64(3), got.ID)
	require.Equal(t, "q", got.Query)
	require.Equal(t, []byte{1}, got.Parts["a"])
	require.Contains(t, got.Parts, "b")

	s.ID, s.Finished = 4, true
	require.NoError(t, Save(path, s))
	got, err = Load(path)
	require.NoError(t, err)
	require.Equal(t, uint64(4), got.ID)
	require.True(t, got.Finished)
	_, err = os.Stat(path + ".tmp")
	require.True(t, errors.Is(err, fs.ErrNotExist), "the temporary file is renamed away")
}

// Every single-byte change and every truncation of a checkpoint file is
// refused as a whole.
func TestLoadRefusesDamage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "checkpoint")
	require.NoError(t, Save(path, &Snapshot{ID: 1, Query: "q", Parts: map[string][]byte{"window": []byte("state")}}))
	good, err := os.ReadFile(path)
	require.NoError(t, err)
	for i := range good {
		b := append([]byte(nil), good...)
		b[i] ^= 0x20
		require.NoError(t, os.WriteFile(path, b, 0o644))
		_, err := Load(path)
		require.Errorf(t, err, "byte %d flipped", i)
		require.True(t, errors.Is(err, ErrCorrupt) || errors.Is(err, ErrIncompatible), "byte %d: %v", i, err)
	}
	for n := range len(good) {
		require.NoError(t, os.WriteFile(path, good[:n], 0o644))
		_, err := Load(path)
		require.ErrorIsf(t, err, ErrCorrupt, "truncated to %d bytes", n)
	}
}

func TestLoadRefusesOtherVersion(t *testing.T) {
	path := filepath.Join(t.TempDir(), "checkpoint")
	require.NoError(t, Save(path, &Snapshot{ID: 1}))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	b[len(magic)] = Version + 1
	// a file of another version has a valid checksum of its own
	body := b[:len(b)-4]
	b = append(body, 0, 0, 0, 0)
	sum := crc32Sum(body)
	b[len(b)-4], b[len(b)-3], b[len(b)-2], b[len(b)-1] = byte(sum), byte(sum>>8), byte(sum>>16), byte(sum>>24)
	require.NoError(t, os.WriteFile(path, b, 0o644))
	_, err = Load(path)
	require.ErrorIs(t, err, ErrIncompatible)
	require.ErrorContains(t, err, fmt.Sprintf("format version %d, this wsql reads version %d", Version+1, Version))
}
