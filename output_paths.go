package wsql

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/checkpoint"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/planner"
	"github.com/wsql/wsql/planner/setting"
	"github.com/wsql/wsql/sql"
)

// Outputs never overwrite inputs: before a query opens anything, each file
// it writes (the filesystem sink, 'wsql.late-data.path',
// 'wsql.bad-rows.path', the caller's results file Output.File) is checked against
// every file and directory the queries of the script read, by device and
// inode (os.SameFile), so ./, symbolic and hard links name the same file.
// An output in a source directory (at any depth) is refused too: a
// directory source reads every file in it, and a followed one reads files
// that appear later.

// inputPath is a file or directory a query of the script reads.
type inputPath struct {
	path  string // as the table's 'path' names it, or a file of its directory
	table string // the table that reads it
	// info is the file's, following links; nil when it does not exist yet
	// (then only its path is compared).
	info os.FileInfo
	// declared: the path of a filesystem table of the script or session,
	// which a later statement may read (see checkResultsFile); at is its
	// 'path' option.
	declared bool
	at       sql.Pos
}

func (in inputPath) isDir() bool { return in.info != nil && in.info.IsDir() }

// whose names the input in an error, after its path.
func (in inputPath) whose() string {
	switch {
	case in.declared:
		return "the 'path' of table " + in.table
	case in.isDir():
		return "the directory table " + in.table + " reads"
	}
	return "which table " + in.table + " reads"
}

// planInputs lists the files and directories p reads, through the
// subqueries and views it reads from. Streams (stdin, tables fed from Go)
// and generators have no path.
func planInputs(p *planner.Plan) []inputPath {
	var ins []inputPath
	p.Walk(func(q *planner.Plan) {
		s, ok := q.Source.(exec.PathSource)
		if !ok || s.InputPath() == "" {
			return
		}
		path := s.InputPath()
		in := inputPath{path: path}
		if q.Table != nil {
			in.table = q.Table.Name
		}
		if info, err := os.Stat(path); err == nil {
			in.info = info
		}
		ins = append(ins, in)
		if !in.isDir() {
			return
		}
		// a split may be a link to a file elsewhere
		for _, split := range s.InputSplits() {
			if info, err := os.Stat(split); err == nil {
				ins = append(ins, inputPath{path: split, table: in.table, info: info})
			}
		}
	})
	return ins
}

// outputKind says how an output path is written.
type outputKind int

const (
	outputFile     outputKind = iota // a file, created or truncated
	outputSinkDir                    // a directory the sink writes part files into
	outputStateDir                   // the checkpoint directory: only its place is checked
)

// outputPath is a file or directory a query writes.
type outputPath struct {
	what string // how the error names it, e.g. "'wsql.bad-rows.path'"
	path string
	kind outputKind
	at   sql.Pos
}

// checkOutputs refuses the query when one of its outputs is an input of
// the script: the inputs of the queries run so far and p's own.
func (r *runner) checkOutputs(st sql.Statement, p *planner.Plan) error {
	ins := append(planInputs(p), r.inputs...)
	if len(ins) == 0 {
		return nil
	}
	for _, o := range r.planOutputs(st, p) {
		if err := checkOutput(o, ins); err != nil {
			return err
		}
	}
	return nil
}

// planOutputs lists what p writes besides its results to the caller's
// writer.
func (r *runner) planOutputs(st sql.Statement, p *planner.Plan) []outputPath {
	var outs []outputPath
	at := st.Pos()
	checkpoints, _ := r.e.settings.get(setting.CheckpointDir)
	if ps, ok := sinkPath(p); ok {
		o := outputPath{what: "the 'path' of sink table " + p.Sink.Table.Name, path: ps, kind: outputFile, at: at}
		if ins, ok := st.(*sql.Insert); ok {
			o.at = ins.Table.At
		}
		if info, err := os.Stat(o.path); checkpoints != "" || (err == nil && info.IsDir()) {
			o.kind = outputSinkDir
		}
		outs = append(outs, o)
	}
	window, badRows := false, false
	p.Walk(func(q *planner.Plan) {
		window = window || !q.Plain
		if q.Source != nil && q.Source.Spec().BadRowsPath != "" && !badRows {
			badRows = true // one setting for every source
			outs = append(outs, outputPath{what: "'" + setting.BadRowsPath + "'", path: q.Source.Spec().BadRowsPath, at: at})
		}
	})
	if window && p.Emit.LateDataPath != "" {
		outs = append(outs, outputPath{what: "'" + setting.LateDataPath + "'", path: p.Emit.LateDataPath, at: at})
	}
	if r.out.File != nil {
		outs = append(outs, outputPath{what: "the results file", path: r.out.File.Path(), at: at})
	}
	if checkpoints != "" && !checkpoint.InObjectStore(checkpoints) { // never a local input
		outs = append(outs, outputPath{what: "'" + setting.CheckpointDir + "'", path: checkpoints, kind: outputStateDir, at: at})
	}
	return outs
}

// checkOutput refuses o if it is one of the inputs, lies inside an input
// directory, or is a sink directory that holds an input file.
func checkOutput(o outputPath, ins []inputPath) error {
	info, err := os.Stat(o.path)
	exists := err == nil
	abs := absPath(o.path)
	for _, in := range ins {
		same := false
		if in.info == nil {
			same = abs == absPath(in.path)
		} else if exists && !info.IsDir() && !in.isDir() {
			same = os.SameFile(info, in.info)
		}
		if same {
			lost := "that input"
			if in.declared {
				lost = "the table's rows"
			}
			return refuse(o, in, "%s '%s' is the same file as '%s', %s: writing it would destroy %s; choose another path",
				o.what, o.path, in.path, in.whose(), lost)
		}
	}
	// The output's directory and each one above it, resolved through links.
	dir := realPath(o.path)
	if o.kind == outputFile {
		dir = filepath.Dir(dir)
	}
	for {
		if st, err := os.Stat(dir); err == nil {
			for _, in := range ins {
				if in.isDir() && os.SameFile(st, in.info) {
					return refuse(o, in, "%s '%s' lies inside '%s', %s: what it writes would be read as input or overwrite it; write outside that directory",
						o.what, o.path, in.path, in.whose())
				}
			}
		}
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	if o.kind != outputSinkDir || !exists || !info.IsDir() {
		return nil
	}
	seen := map[string]bool{} // the files of a directory source share theirs
	for _, in := range ins {
		if in.info == nil || in.isDir() {
			continue
		}
		// the input's own directory, and its target's when it is a link
		dirs := []string{filepath.Dir(in.path)}
		if st, err := os.Lstat(in.path); err == nil && st.Mode()&os.ModeSymlink != 0 {
			dirs = append(dirs, filepath.Dir(realPath(in.path)))
		}
		for _, p := range dirs {
			if seen[p] {
				continue
			}
			seen[p] = true
			if st, err := os.Stat(p); err == nil && os.SameFile(st, info) {
				return refuse(o, in, "%s '%s' is a directory holding '%s', %s: the sink writes its part files there; give the sink a directory of its own",
					o.what, o.path, in.path, in.whose())
			}
		}
	}
	return nil
}

// refuse is the error of an output that conflicts with an input, at the
// output's position in the script, else at the input's; a table of an
// earlier Run has no position in this one.
func refuse(o outputPath, in inputPath, format string, args ...any) error {
	at := o.at
	if !at.IsValid() {
		at = in.at
	}
	if !at.IsValid() {
		return fmt.Errorf(format, args...)
	}
	return sql.Errorf(sql.ErrInvalid, at, format, args...)
}

// checkResultsFile refuses, before any statement runs, a results file
// that is (or lies in) the path of a filesystem table of the session or
// of the script: results are written to it as they come (SHOW's as much
// as a query's), before a later query reading it would be planned. A
// table that is only written is refused too: two outputs in one file.
func (e *Engine) checkResultsFile(stmts []sql.Statement, file string) error {
	var ins []inputPath
	add := func(name string, opts catalog.Options) {
		conn, _ := opts.Get(connector.KeyConnector)
		c, ok := connector.Lookup(conn)
		if !ok || c.PathKey == "" {
			return
		}
		path, ok := opts.Lookup(c.PathKey)
		if !ok || path.Value == "" {
			return
		}
		in := inputPath{path: path.Value, table: name, declared: true, at: path.At}
		if info, err := os.Stat(path.Value); err == nil {
			in.info = info
		}
		ins = append(ins, in)
	}
	e.mu.Lock()
	for _, name := range e.cat.TableNames() {
		if t := e.cat.Table(name); t != nil && t.Attached == nil {
			add(name, t.Options)
		}
	}
	e.mu.Unlock()
	for i := range ins {
		ins[i].at = sql.Pos{} // a position in an earlier Run's text
	}
	for _, st := range stmts {
		if ct, ok := st.(*sql.CreateTable); ok {
			add(ct.Name.Name, ct.Options)
		}
	}
	return checkOutput(outputPath{what: "the results file", path: file}, ins)
}

// absPath is path made absolute and clean; path itself if that fails.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}

// realPath is path with its longest existing prefix resolved through
// symbolic links, so that the directories above it are the real ones.
func realPath(path string) string {
	cur, rest := absPath(path), ""
	for {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(real, rest)
		}
		up := filepath.Dir(cur)
		if up == cur {
			return absPath(path)
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = up
	}
}

// sinkPath is the file or directory the plan's sink writes, if it writes
// files.
func sinkPath(p *planner.Plan) (string, bool) {
	if p.Sink == nil {
		return "", false
	}
	ps, ok := p.Sink.Target.(connector.PathSink)
	if !ok {
		return "", false
	}
	return ps.OutputPath(), true
}
