package kafka

import (
	"bytes"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec/badrows"
)

// openBadRows opens the read's bad-rows file ('wsql.bad-rows.path'), or
// with at (the rest of a checkpoint's source state) reopens it cut back
// to what it held then.
func (r *reader) openBadRows(at *checkpoint.Decoder) error {
	size := int64(-1)
	if at != nil {
		size = at.Int()
		if err := at.Err(); err != nil {
			return err
		}
	}
	path := r.src.BadRowsPath
	var err error
	switch {
	case path == "":
	case at != nil:
		r.bad, err = badrows.Reopen(path, size)
	default:
		r.bad, err = badrows.Create(path)
	}
	return err
}

// writeBad writes a skipped record's value to the bad-rows file, one a
// line, its line breaks made blanks (a JSON value stays the same JSON); a
// tombstone writes nothing.
func (r *reader) writeBad(rec *kgo.Record) {
	if r.bad == nil || rec.Value == nil {
		return
	}
	line := bytes.Map(func(c rune) rune {
		if c == '\n' || c == '\r' {
			return ' '
		}
		return c
	}, rec.Value)
	r.bad.WriteLine(line)
}

// saveBadRows puts the bad-rows file's length in the checkpoint, flushed
// to it: -1 without one.
func (r *reader) saveBadRows(e *checkpoint.Encoder) error {
	n, err := r.bad.Sync()
	e.Int(n)
	return err
}

// BadRows is the read's bad-rows file, which the future filter writes to
// as well.
func (r *reader) BadRows() *badrows.File { return r.bad }
