package checkpoint

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/wsql/wsql/checkpoint/objectstore"
)

// Version is the checkpoint format this build writes and reads. Bump it
// when any operator's state layout changes: an older file is then refused
// as incompatible instead of being misread.
const Version = 2

const magic = "WSQLCKPT"

// ErrIncompatible marks a well-formed checkpoint that this build or this
// query cannot continue from: another format version, or another query.
var ErrIncompatible = errors.New("incompatible checkpoint")

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// Snapshot is one consistent checkpoint of a query: the state of each part
// of the pipeline under its own name, taken between two batches.
type Snapshot struct {
	ID uint64 // 1 for the first checkpoint of a run, then counting up
	// Query identifies what the state belongs to (a hash of the query and
	// the tables it reads); a restore into any other query is refused.
	Query string
	// Finished is set by the checkpoint taken when the input ended and
	// every result was committed: there is nothing left to resume.
	Finished bool
	Parts    map[string][]byte
}

// Save writes s as the file at path: to a temporary file beside it,
// fsynced, renamed over path, and the directory fsynced. A path in an
// object store is written by one PUT, which replaces the object whole.
func Save(path string, s *Snapshot) error {
	_, err := Write(path, s)
	return err
}

// Write is Save, returning the checkpoint's size in bytes.
func Write(path string, s *Snapshot) (int, error) {
	b := encode(s)
	if InObjectStore(path) {
		return len(b), saveObject(path, b)
	}
	return len(b), saveFile(path, b)
}

func encode(s *Snapshot) []byte {
	var e Encoder
	e.buf = append(e.buf, magic...)
	e.buf = binary.LittleEndian.AppendUint32(e.buf, Version)
	e.Uint(s.ID)
	e.String(s.Query)
	e.Bool(s.Finished)
	names := make([]string, 0, len(s.Parts))
	for n := range s.Parts {
		names = append(names, n)
	}
	sort.Strings(names)
	e.Uint(uint64(len(names)))
	for _, n := range names {
		e.String(n)
		e.Bytes(s.Parts[n])
	}
	e.buf = binary.LittleEndian.AppendUint32(e.buf, crc32Sum(e.buf))
	return e.buf
}

func saveFile(path string, b []byte) error {
	tmp := path + ".tmp"
	if err := writeSynced(tmp, b); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	if err := SyncDir(filepath.Dir(path)); err != nil {
		return fmt.Errorf("checkpoint: %w", err)
	}
	return nil
}

func writeSynced(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// SyncDir fsyncs a directory, making the renames and creations in it
// durable.
func SyncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}

// Load reads the checkpoint at path. A missing file is an error wrapping
// fs.ErrNotExist; a file that is not a whole, intact checkpoint of this
// format wraps ErrCorrupt or ErrIncompatible, and nothing of it is
// returned. A path in an object store is read the same way.
func Load(path string) (*Snapshot, error) {
	var b []byte
	var err error
	if InObjectStore(path) {
		b, err = objectstore.Get(path)
	} else {
		b, err = os.ReadFile(path)
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		return nil, fmt.Errorf("checkpoint: %w", err)
	}
	s, err := decode(b)
	if err != nil {
		return nil, fmt.Errorf("checkpoint %s: %w", path, err)
	}
	return s, nil
}

func decode(b []byte) (*Snapshot, error) {
	head := len(magic) + 4
	if len(b) < head+4 || string(b[:len(magic)]) != magic {
		return nil, fmt.Errorf("%w: not a wsql checkpoint file", ErrCorrupt)
	}
	body, sum := b[:len(b)-4], binary.LittleEndian.Uint32(b[len(b)-4:])
	if crc32Sum(body) != sum {
		return nil, fmt.Errorf("%w: checksum mismatch (the file was truncated or changed)", ErrCorrupt)
	}
	if v := binary.LittleEndian.Uint32(b[len(magic):]); v != Version {
		return nil, fmt.Errorf("%w: format version %d, this wsql reads version %d", ErrIncompatible, v, Version)
	}
	d := NewDecoder(body[head:])
	s := &Snapshot{ID: d.Uint(), Query: d.String(), Finished: d.Bool(), Parts: map[string][]byte{}}
	n := d.Len(2)
	for range n {
		name := d.String()
		s.Parts[name] = d.Bytes()
	}
	if err := d.Finish(); err != nil {
		return nil, err
	}
	return s, nil
}

func crc32Sum(b []byte) uint32 { return crc32.Checksum(b, crcTable) }
