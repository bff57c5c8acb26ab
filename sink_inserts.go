package wsql

import (
	"os"

	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/planner"
	"github.com/wsql/wsql/sql"
)

// Several INSERTs of a script into one filesystem sink never replace each
// other's rows. As Flink's jobs each add part files to the sink's
// directory, the nth INSERT (from 0) into a directory writes its own part
// files: part-<n>.csv without checkpoints, part-NNNNNN.csv (n = 0) or
// part-<n>-NNNNNN.csv with them. A path that is a file holds one INSERT's
// rows: a second INSERT into it is refused before it runs.

// writtenSink is a filesystem sink path an INSERT of the script wrote.
type writtenSink struct {
	info    os.FileInfo // of the path, following links
	inserts int         // INSERTs of the script into it so far
}

// writtenSink finds the sink an earlier INSERT of the script wrote at path
// (the same file or directory by any name); nil if none did.
func (r *runner) writtenSink(path string) *writtenSink {
	info, err := os.Stat(path)
	if err != nil {
		return nil
	}
	for _, w := range r.sinks {
		if os.SameFile(w.info, info) {
			return w
		}
	}
	return nil
}

// sinkInserts is how many INSERTs of the script wrote the sink's path
// before this one: the number of this INSERT's part files.
func (r *runner) sinkInserts(path string) int {
	if w := r.writtenSink(path); w != nil {
		return w.inserts
	}
	return 0
}

// refuseSecondInsert refuses an INSERT into a filesystem sink whose path
// is a file an earlier INSERT of the script wrote: it would replace them.
func (r *runner) refuseSecondInsert(s *sql.Insert, p *planner.Plan) error {
	if p.Sink == nil {
		return nil
	}
	ps, ok := p.Sink.Target.(connector.PathSink)
	if !ok {
		return nil
	}
	w := r.writtenSink(ps.OutputPath())
	if w == nil || w.info.IsDir() {
		return nil
	}
	return sql.Errorf(sql.ErrInvalid, s.Table.At,
		"sink table %s writes the file '%s', which an earlier INSERT of this script wrote: a second INSERT would replace those rows; make the sink's 'path' a directory, where each INSERT adds its own part files, or insert into another table",
		p.Sink.Table.Name, ps.OutputPath())
}

// sinkWritten records that an INSERT opened its sink at path.
func (r *runner) sinkWritten(path string) {
	if w := r.writtenSink(path); w != nil {
		w.inserts++
		return
	}
	if info, err := os.Stat(path); err == nil {
		r.sinks = append(r.sinks, &writtenSink{info: info, inserts: 1})
	}
}
