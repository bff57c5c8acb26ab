package pipeline

import (
	"errors"
	"fmt"
	"runtime/debug"
)

// ErrInternal marks an error that is a bug in wsql, not in the query or its
// input: a panic caught where engine code runs (an API call, a goroutine of
// the engine) and turned into an error, so that no panic reaches the
// program that embeds wsql.
var ErrInternal = errors.New("internal error")

// PanicError is a panic caught at a goroutine or API boundary: the value
// panicked with and the stack where it happened. errors.Is(err,
// ErrInternal) holds for it.
type PanicError struct {
	Value any
	Stack string
	// Where names the program's own code that panicked (a function it
	// passed to wsql), or is empty when the panic is wsql's.
	Where string
}

func (e *PanicError) Error() string {
	if e.Where != "" {
		return fmt.Sprintf("%s panicked: %v\n%s", e.Where, e.Value, e.Stack)
	}
	return fmt.Sprintf("internal error: panic: %v; this is a bug in wsql: please report it with the statement and this stack\n%s", e.Value, e.Stack)
}

// Unwrap makes the error match ErrInternal.
func (e *PanicError) Unwrap() error { return ErrInternal }

// CatchPanic, deferred, turns a panic of the function it is deferred in
// into a *PanicError stored in *err. The function's own deferred calls
// have run by then, releasing what it held.
//
//	func (j *Job) Run(...) (stats Stats, err error) {
//		defer CatchPanic(&err)
func CatchPanic(err *error) {
	if r := recover(); r != nil {
		*err = PanicAsError(r, "")
	}
}

// PanicAsError is the error for r, a value recover returned; where names
// the program's code that panicked, if it was not wsql's. A *PanicError
// caught again is kept as it is.
func PanicAsError(r any, where string) error {
	if pe, ok := r.(*PanicError); ok {
		return pe
	}
	return &PanicError{Value: r, Stack: string(debug.Stack()), Where: where}
}
