package wsql

import "github.com/wsql/wsql/pipeline"

// ErrInternal marks an error that is a bug in wsql: a panic inside the
// engine, caught where it runs (Run, Exec, Query and its Rows, the tables
// registered and pushed from Go, the database/sql driver, and the engine's
// own goroutines) and returned as an error, never re-panicked. The text
// carries the panic's value and stack; please report it. A panic of a
// function the program passed in (a sink table's SinkFunc) is returned the
// same way, naming that function.
var ErrInternal = pipeline.ErrInternal

// PanicError is the error a caught panic becomes (see ErrInternal).
type PanicError = pipeline.PanicError
