package connector

import (
	"io"
	"time"

	"github.com/wsql/wsql/rowtime"
)

// Env is what a source factory may use besides the table: the values of
// the session and the run the planner was given.
type Env struct {
	BatchSize int
	// Clock is the injected processing-time clock; nil is the system clock.
	Clock rowtime.Clock
	// Location is the session time zone.
	Location *time.Location
	// Stdin is the caller's standard input; nil when there is none.
	Stdin io.Reader
	// BadRowsPath is 'wsql.bad-rows.path'; MaxRecordBytes is
	// 'wsql.max-record-bytes' (0: the default).
	BadRowsPath    string
	MaxRecordBytes int
	// Run is set when the query is planned to run now: what it reads must
	// be there (a filesystem table's path, standard input). Unset for
	// EXPLAIN and as CREATE TABLE and CREATE VIEW check a table, whose
	// file may be created later.
	Run bool
}

// SystemClock reports whether c is the system clock (nil is): generators
// pace their reads only under it, so a test's manual clock never sleeps.
func (e *Env) SystemClock() bool {
	if e.Clock == nil {
		return true
	}
	_, ok := e.Clock.(rowtime.SystemClock)
	return ok
}
