package main

import (
	"io"
	"os"

	"golang.org/x/term"

	"github.com/wsql/wsql"
)

// tableModeWriter is the writer of a result shown as a table, by the
// session's 'sql-client.execution.result-mode', as Flink's SQL client
// shows it: tableau, a boxed table printed as rows arrive (an update
// stream's op column first); changelog, every change in the client's
// borderless layout; table, the materialised rows, drawn in place on a
// terminal (screen) and printed once at the end elsewhere. Not set: table
// for an update stream on a terminal, tableau otherwise.
func tableModeWriter(r wsql.ResultInfo, out io.Writer, screen wsql.Screen) wsql.ResultWriter {
	mode := r.ResultMode
	if mode == "" {
		mode = "tableau"
		if screen.Size != nil && wsql.IsUpdateStream(r.Schema) {
			mode = "table"
		}
	}
	switch mode {
	case "table":
		return wsql.NewMaterializedTableWriter(out, r.Schema, r.Location, screen)
	case "changelog":
		return wsql.NewChangelogWriter(out, r.Schema, r.Location)
	}
	return wsql.NewTableWriter(out, r.Schema, r.Location)
}

// screenOf is out as a screen a table is drawn on in place: its size
// asked at each drawing; the zero Screen when out is no terminal.
func screenOf(out io.Writer) wsql.Screen {
	f, ok := out.(*os.File)
	if !ok || !isTerminal(f) {
		return wsql.Screen{}
	}
	return wsql.Screen{Size: func() (int, int, bool) {
		w, h, err := term.GetSize(int(f.Fd()))
		return w, h, err == nil
	}}
}
