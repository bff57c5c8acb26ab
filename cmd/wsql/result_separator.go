package main

import (
	"io"

	"github.com/wsql/wsql"
)

// resultSeparator puts a blank line between the outputs of one run in
// table format (result tables, each with its header, and EXPLAIN's
// text), as psql does, so that consecutive results read as separate
// tables. CSV and JSON are written unchanged: a CSV result starts with
// its header row and a JSON row names its columns, and a blank line
// would be read as a row.
type resultSeparator struct {
	w       io.Writer
	clear   func() // erases a status line before the blank line, if set
	written bool   // an output came before
}

// next starts an output: after an earlier one, with a blank line.
func (s *resultSeparator) next() {
	if s.written {
		if s.clear != nil {
			s.clear()
		}
		io.WriteString(s.w, "\n")
	}
	s.written = true
}

// separate wraps a run's result writers and text so that each output is
// separated from the one before. The blank line is written when a result
// starts, not by wrapping its writer: an --output file with checkpoints
// commits the format's own writer.
func (s *resultSeparator) separate(out *wsql.Output) {
	newWriter, onText := out.NewWriter, out.OnText
	out.NewWriter = func(r wsql.ResultInfo) (wsql.ResultWriter, error) {
		s.next()
		return newWriter(r)
	}
	if onText != nil {
		out.OnText = func(text string) {
			s.next()
			onText(text)
		}
	}
}
