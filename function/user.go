package function

import (
	"encoding"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/exec/lateral"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/windowop"
)

// Functions a Go program defines (user-defined functions): registry
// entries like the built-ins', marked User, whose kernels call the
// program's code a batch at a time.

// ScalarEval computes a user scalar function over one batch: args are the
// arguments' columns (cast to the declared types), all of the batch's
// length; the result has that length and the declared type.
type ScalarEval func(mem memory.Allocator, args []arrow.Array) (arrow.Array, error)

// UserScalar is the entry of a scalar function of the given parameter and
// result types.
func UserScalar(name, description string, params []arrow.DataType, result arrow.DataType, eval ScalarEval) Function {
	return Function{Name: name, Kind: ScalarFunction, User: true, Description: description,
		Signatures: []Signature{{Params: userParams(params), Result: format.SQLTypeName(result)}},
		Compile: func(_ Compiler, k *Call) (expr.Expr, error) {
			return &userScalarExpr{name: name, args: k.Args, result: result, eval: eval}, nil
		}}
}

// UserAggregate is the entry of an aggregate function of one argument.
func UserAggregate(name, description string, param, result arrow.DataType, newAcc func() windowop.UserAccumulator) Function {
	u := &userAggregate{name: name, param: param, result: result, newAcc: newAcc}
	what := "a " + format.SQLTypeName(param)
	return Function{Name: name, Kind: AggregateFunction, User: true, Description: description,
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgType{Name: format.SQLTypeName(param), Sample: "x"}}}, Result: format.SQLTypeName(result)}},
		Aggregate: &AggregateKernel{Kind: windowop.User, User: u, Arg: ArgClass{What: what, Param: ArgType{Name: format.SQLTypeName(param)},
			OK: func(dt arrow.DataType) bool { return arrow.TypeEqual(dt, param) }}}}
}

// UserTable is the entry of a table function, run by LATERAL TABLE(...)
// in FROM (exec/lateral): its columns, and its Go function guarded so an
// error or panic stops the query naming it.
func UserTable(name, description string, params []arrow.DataType, columns []arrow.Field, eval lateral.TableEval) Function {
	guarded := func(mem memory.Allocator, args []arrow.Array) (arrow.RecordBatch, []int, error) {
		var rows []int
		rec, err := callUser(name, func() (arrow.RecordBatch, error) {
			rec, r, err := eval(mem, args)
			rows = r
			return rec, err
		})
		return rec, rows, err
	}
	return Function{Name: name, Kind: TableFunction, User: true, Description: description,
		Signatures: []Signature{{Params: userParams(params), Result: "rows"}},
		Table:      &TableKernel{Columns: columns, Eval: guarded}}
}

// TableKernel is how a table function runs: the columns of the rows it
// gives, and the function giving them a batch of argument rows at a time.
type TableKernel struct {
	Columns []arrow.Field
	Eval    lateral.TableEval
}

// UserArgClass is the argument class of a user aggregate (its declared
// type), nil for another aggregate.
func UserArgClass(u windowop.UserAggregate) (ArgClass, bool) {
	a, ok := u.(*userAggregate)
	if !ok {
		return ArgClass{}, false
	}
	return ArgClass{What: "a " + format.SQLTypeName(a.param), OK: func(dt arrow.DataType) bool { return arrow.TypeEqual(dt, a.param) }}, true
}

// userParams are the parameters of declared types: an argument of another
// numeric type is cast to a numeric parameter, as Flink's implicit casts
// do; other types must match.
func userParams(types []arrow.DataType) []Param {
	ps := make([]Param, len(types))
	for i, dt := range types {
		name := format.SQLTypeName(dt)
		ps[i] = Param{Name: fmt.Sprintf("arg%d", i+1), Type: ArgType{Name: name, Sample: "x", Check: func(c Compiler, k *Call, i int, p Param) (err error) {
			got := k.Args[i].DataType()
			numeric := func(t arrow.DataType) bool { return IsInteger(t) || isAggNumeric(t) }
			if !arrow.TypeEqual(got, dt) && !IsNull(got) && !(numeric(got) && numeric(dt)) {
				return sql.Errorf(sql.ErrInvalid, k.Pos[i], "%s expects %s for %s, got %s", k.Name, name, p.Name, TypeName(got))
			}
			k.Args[i], err = c.To(k.Args[i], dt, k.Pos[i])
			return err
		}}}
	}
	return ps
}

// userScalarExpr calls a user scalar function on a batch. It can fail (the
// program's error), so conditional forms run it only on the rows that
// reach it.
type userScalarExpr struct {
	name   string
	args   []expr.Expr
	result arrow.DataType
	eval   ScalarEval
}

func (e *userScalarExpr) DataType() arrow.DataType { return e.result }
func (e *userScalarExpr) Children() []expr.Expr    { return e.args }
func (e *userScalarExpr) CanFail() bool            { return true }

func (e *userScalarExpr) String() string {
	args := make([]string, len(e.args))
	for i, a := range e.args {
		args[i] = a.String()
	}
	return e.name + "(" + strings.Join(args, ", ") + ")"
}

func (e *userScalarExpr) Eval(rec arrow.RecordBatch, mem memory.Allocator) (out arrow.Array, err error) {
	args := make([]arrow.Array, 0, len(e.args))
	defer func() { expr.ReleaseAll(args) }()
	for _, x := range e.args {
		a, err := x.Eval(rec, mem)
		if err != nil {
			return nil, err
		}
		args = append(args, a)
	}
	out, err = callUser(e.name, func() (arrow.Array, error) { return e.eval(mem, args) })
	if err != nil {
		return nil, err
	}
	n := int(rec.NumRows())
	switch {
	case out == nil:
		err = fmt.Errorf("%w: function %s returned no array", expr.ErrEval, e.name)
	case out.Len() != n:
		err = fmt.Errorf("%w: function %s returned %d values for %d rows", expr.ErrEval, e.name, out.Len(), n)
	case !arrow.TypeEqual(out.DataType(), e.result):
		err = fmt.Errorf("%w: function %s returned %s, not its declared %s", expr.ErrEval, e.name, out.DataType(), e.result)
	}
	if err != nil {
		if out != nil {
			out.Release()
		}
		return nil, err
	}
	return out, nil
}

// callUser runs a program's function, its error or panic an error of the
// query naming the function.
func callUser[T any](name string, f func() (T, error)) (v T, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%w: function %s panicked: %v", expr.ErrEval, name, p)
		}
	}()
	v, err = f()
	if err != nil {
		err = fmt.Errorf("%w: function %s: %w", expr.ErrEval, name, err)
	}
	return v, err
}

// userAggregate is a user aggregate as the window operator runs it.
type userAggregate struct {
	name          string
	param, result arrow.DataType
	newAcc        func() windowop.UserAccumulator
}

func (u *userAggregate) Name() string               { return u.name }
func (u *userAggregate) ResultType() arrow.DataType { return u.result }
func (u *userAggregate) NewAccumulator() windowop.UserAccumulator {
	return &guardedAcc{name: u.name, acc: u.newAcc()}
}

// guardedAcc turns a panic of the program's accumulator into an error.
type guardedAcc struct {
	name string
	acc  windowop.UserAccumulator
}

func (g *guardedAcc) Accumulate(arg arrow.Array, rows []int) error {
	_, err := callUser(g.name, func() (struct{}, error) { return struct{}{}, g.acc.Accumulate(arg, rows) })
	return err
}

func (g *guardedAcc) Merge(other windowop.UserAccumulator) error {
	o := other.(*guardedAcc).acc
	_, err := callUser(g.name, func() (struct{}, error) { return struct{}{}, g.acc.Merge(o) })
	return err
}

func (g *guardedAcc) AppendValue(b array.Builder) error {
	_, err := callUser(g.name, func() (struct{}, error) { return struct{}{}, g.acc.AppendValue(b) })
	return err
}

// Retract is the program's accumulator's, for update streams (Retracts).
func (g *guardedAcc) Retract(arg arrow.Array, rows []int) error {
	r, ok := g.acc.(windowop.UserRetracter)
	if !ok {
		return fmt.Errorf("the accumulator of %s has no Retract method", g.name)
	}
	_, err := callUser(g.name, func() (struct{}, error) { return struct{}{}, r.Retract(arg, rows) })
	return err
}

// Retracts reports whether the program's accumulators can take rows out
// (a Retract method), which an aggregate over an update stream needs.
func (u *userAggregate) Retracts() bool {
	_, ok := u.newAcc().(windowop.UserRetracter)
	return ok
}

// MarshalBinary and UnmarshalBinary are the program's accumulator's, for
// checkpoints (the planner refuses checkpointing without them).
func (g *guardedAcc) MarshalBinary() ([]byte, error) {
	m, ok := g.acc.(encoding.BinaryMarshaler)
	if !ok {
		return nil, fmt.Errorf("the accumulator of %s does not implement encoding.BinaryMarshaler", g.name)
	}
	return callUser(g.name, m.MarshalBinary)
}

func (g *guardedAcc) UnmarshalBinary(b []byte) error {
	u, ok := g.acc.(encoding.BinaryUnmarshaler)
	if !ok {
		return fmt.Errorf("the accumulator of %s does not implement encoding.BinaryUnmarshaler", g.name)
	}
	_, err := callUser(g.name, func() (struct{}, error) { return struct{}{}, u.UnmarshalBinary(b) })
	return err
}

// Checkpointable reports whether the program's accumulators can be saved
// in a checkpoint and restored: they have the methods, and an empty one
// saves.
func (u *userAggregate) Checkpointable() bool {
	acc := u.newAcc()
	m, ok := acc.(encoding.BinaryMarshaler)
	if _, um := acc.(encoding.BinaryUnmarshaler); !ok || !um {
		return false
	}
	_, err := callUser(u.name, m.MarshalBinary) // gob refuses an accumulator without exported fields
	return err == nil
}
