package wsql

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/wsql/wsql/function"
	"github.com/wsql/wsql/planner"
	"github.com/wsql/wsql/planner/setting"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/windowop"
)

// Function is a function written in Go that SQL calls by name: a
// *ScalarFunction, an *AggregateFunction or a *TableFunction, registered on
// an Engine with RegisterFunction. ScalarFunc1, ScalarFunc2, ScalarFunc3 and
// AggregateFunc build one from plain Go functions of a row.
type Function interface {
	entry(name string) (function.Function, error)
}

// ScalarFunction computes a value per row, a batch of rows at a time
// (Flink's ScalarFunction).
type ScalarFunction struct {
	// Args are the parameter types. A call must pass as many arguments;
	// a number of another numeric type is cast to a numeric parameter, any
	// other argument must have the parameter's type (CAST it otherwise).
	Args []arrow.DataType
	// Result is the type of the values Eval returns.
	Result arrow.DataType
	// Eval computes one batch: args are the arguments' columns (a
	// constant is a column too), all of the batch's length. It returns an
	// array of that length and of type Result, allocated from mem, which
	// wsql releases; it must not keep or release args. An error stops the
	// query. Queries may call it from several goroutines at once.
	Eval func(mem memory.Allocator, args []arrow.Array) (arrow.Array, error)
	// Description is a line about the function.
	Description string
}

// AggregateFunction folds a window's rows of one key into a value
// (Flink's AggregateFunction): wsql keeps an Accumulator per key and
// window, feeds it the rows, merges accumulators where windows are built
// of panes (HOP, CUMULATE) or sessions merge, and reads the value when the
// window fires. Over an update stream (GROUP BY over a GROUP BY, ...) rows
// are also taken out: the accumulator then needs a method
// Retract(arg arrow.Array, rows []int) error undoing Accumulate, as Flink
// needs retract; without it such a query is refused.
type AggregateFunction struct {
	// Arg is the type of the one argument; the argument must have it.
	Arg arrow.DataType
	// Result is the type of the value.
	Result arrow.DataType
	// NewAccumulator returns an empty accumulator (Flink's
	// createAccumulator). It is called from several goroutines at once
	// when a query runs with 'parallelism.default' above 1.
	NewAccumulator func() Accumulator
	// Description is a line about the function.
	Description string
}

// Accumulator is one key's and window's state of an AggregateFunction:
//
//   - Accumulate(arg, rows) folds the rows rows of arg (indexes, in arrival
//     order; NULL values included) into the accumulator;
//   - Merge(other) folds other, an accumulator of the same function, into
//     this one;
//   - AppendValue(b) appends the value (Flink's getValue) to b, a builder
//     of the Result type: exactly one value, or one NULL.
//
// An error from any of them stops the query. A query that writes
// checkpoints saves accumulators with their MarshalBinary and restores
// them with UnmarshalBinary (encoding.BinaryMarshaler and
// encoding.BinaryUnmarshaler); without these methods, such a query is
// refused before it starts.
type Accumulator = windowop.UserAccumulator

// TableFunction gives rows for each row (Flink's TableFunction), joined
// with the table it is called on:
//
//	SELECT s, word FROM t, LATERAL TABLE(split(s)) AS T(word, len)
//	SELECT s, word FROM t LEFT JOIN LATERAL TABLE(split(s)) AS T(word, len) ON TRUE
//
// CROSS JOIN (or a comma) drops a row the function gives no rows for;
// LEFT JOIN ... ON TRUE keeps it once, with NULL columns. The function's
// rows follow the row they come from, which keeps its row kind (+I, -U,
// ...) and its time attribute, so a window may follow.
type TableFunction struct {
	// Args are the parameter types, as ScalarFunction's.
	Args []arrow.DataType
	// Columns are the columns of the rows it gives.
	Columns []arrow.Field
	// Eval gives the rows for a batch of argument rows: a record batch of
	// Columns (allocated from mem; wsql releases it) and, for each of its
	// rows, the index of the argument row it belongs to, in non-decreasing
	// order (the rows of argument row 0 first). args are as for
	// ScalarFunction.Eval. An error stops the query. Queries may call it
	// from several goroutines at once.
	Eval func(mem memory.Allocator, args []arrow.Array) (arrow.RecordBatch, []int, error)
	// Description is a line about the function.
	Description string
}

func (f *ScalarFunction) entry(name string) (function.Function, error) {
	if f.Eval == nil || f.Result == nil {
		return function.Function{}, fmt.Errorf("wsql: function %s: a ScalarFunction needs Result and Eval", name)
	}
	if err := checkTypes(name, append(append([]arrow.DataType(nil), f.Args...), f.Result)); err != nil {
		return function.Function{}, err
	}
	return function.UserScalar(name, describe(f.Description, "a scalar function"), f.Args, f.Result, f.Eval), nil
}

func (f *AggregateFunction) entry(name string) (function.Function, error) {
	if f.NewAccumulator == nil || f.Arg == nil || f.Result == nil {
		return function.Function{}, fmt.Errorf("wsql: function %s: an AggregateFunction needs Arg, Result and NewAccumulator", name)
	}
	if err := checkTypes(name, []arrow.DataType{f.Arg, f.Result}); err != nil {
		return function.Function{}, err
	}
	return function.UserAggregate(name, describe(f.Description, "an aggregate function"), f.Arg, f.Result, f.NewAccumulator), nil
}

func (f *TableFunction) entry(name string) (function.Function, error) {
	if f.Eval == nil || len(f.Columns) == 0 {
		return function.Function{}, fmt.Errorf("wsql: function %s: a TableFunction needs Columns and Eval", name)
	}
	if err := checkTypes(name, f.Args); err != nil {
		return function.Function{}, err
	}
	if err := checkTypes(name, fieldTypes(f.Columns)); err != nil {
		return function.Function{}, err
	}
	return function.UserTable(name, describe(f.Description, "a table function"), f.Args, f.Columns, f.Eval), nil
}

func fieldTypes(fs []arrow.Field) []arrow.DataType {
	out := make([]arrow.DataType, len(fs))
	for i, f := range fs {
		out[i] = f.Type
	}
	return out
}

func describe(d, kind string) string {
	if d == "" {
		return kind + " defined in Go"
	}
	return d
}

// checkTypes refuses types that are not the Arrow form of a SQL type.
func checkTypes(name string, types []arrow.DataType) error {
	for _, dt := range types {
		if dt == nil {
			return fmt.Errorf("wsql: function %s: a type is nil", name)
		}
		switch dt.ID() {
		case arrow.BOOL, arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.FLOAT32, arrow.FLOAT64,
			arrow.STRING, arrow.DATE32, arrow.TIME32, arrow.TIMESTAMP, arrow.DECIMAL128:
		default:
			return fmt.Errorf("wsql: function %s: %s is not the Arrow type of a SQL type wsql has", name, dt)
		}
	}
	return nil
}

var functionName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// RegisterFunction makes f callable from SQL as name (case-insensitive,
// as SQL names are), for every statement the engine runs from then on: it
// is listed by SHOW USER FUNCTIONS and SHOW FUNCTIONS, and CREATE FUNCTION
// can give it another name (CREATE FUNCTION other AS 'name'). A name of a
// built-in function, or of a function already registered or created, is
// refused: wsql's built-ins cannot be replaced (in Flink a temporary system
// function would shadow one).
func (e *Engine) RegisterFunction(name string, f Function) error {
	if !functionName.MatchString(name) {
		return fmt.Errorf("wsql: %q is not a function name: letters, digits and _, not starting with a digit", name)
	}
	upper := strings.ToUpper(name)
	entry, err := f.entry(upper)
	if err != nil {
		return err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if err := e.checkNewFunction(upper); err != nil {
		return err
	}
	fns, err := e.functions().With(entry)
	if err != nil {
		return err
	}
	if e.goFunctions == nil {
		e.goFunctions = map[string]Function{}
	}
	e.goFunctions[upper] = f
	e.fns = fns
	return nil
}

// functions is the registry the engine's statements resolve calls in:
// the built-ins and the user-defined functions. It is replaced, never
// changed, so a plan keeps what it resolved. The caller holds e.mu.
func (e *Engine) functions() *function.Registry {
	if e.fns == nil {
		return function.Builtins()
	}
	return e.fns
}

// checkNewFunction refuses a name taken by a built-in or a user function.
func (e *Engine) checkNewFunction(name string) error {
	f := e.functions().Lookup(name)
	switch {
	case f == nil:
		return nil
	case f.User:
		return fmt.Errorf("function %s already exists", name)
	}
	return fmt.Errorf("%s is a built-in function: a user-defined function needs another name", name)
}

// FunctionNames lists what SHOW FUNCTIONS prints on this engine: the
// built-in functions wsql runs and the user-defined ones, sorted.
func (e *Engine) FunctionNames() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.functions().RunnableNames()
}

// createFunction runs CREATE FUNCTION name AS 'identifier': name becomes
// another name of the Go function registered as identifier. A Java class
// name (Flink's identifiers, com.example.udf.CountChar) finds the Go
// function registered as its last part (CountChar), so a Flink script
// runs once its functions are registered from Go under their class names.
func (r *runner) createFunction(s *sql.CreateFunction) error {
	e := r.e
	name := strings.ToUpper(s.Name.Name)
	f, ok := e.goFunctions[strings.ToUpper(s.Identifier)]
	if i := strings.LastIndexByte(s.Identifier, '.'); !ok && i >= 0 {
		f, ok = e.goFunctions[strings.ToUpper(s.Identifier[i+1:])]
	}
	if !ok {
		registered := make([]string, 0, len(e.goFunctions))
		for n := range e.goFunctions {
			registered = append(registered, n)
		}
		hint := "; none is registered"
		if len(registered) > 0 {
			hint = sql.DidYouMean(strings.ToUpper(s.Identifier), registered)
		}
		return sql.Errorf(sql.ErrInvalid, s.IdentifierAt, "no Go function is registered as '%s': a Go program registers one with Engine.RegisterFunction%s", s.Identifier, hint)
	}
	if err := e.checkNewFunction(name); err != nil {
		if s.IfNotExists && e.functions().Lookup(name).User {
			return nil
		}
		return sql.Errorf(sql.ErrInvalid, s.Name.At, "%v", err)
	}
	entry, err := f.entry(name)
	if err != nil {
		return sql.Errorf(sql.ErrInvalid, s.Name.At, "%v", err)
	}
	fns, err := e.functions().With(entry)
	if err != nil {
		return sql.Errorf(sql.ErrInvalid, s.Name.At, "%v", err)
	}
	e.fns = fns
	return nil
}

// dropFunction runs DROP FUNCTION: the name is gone; the Go function
// stays registered under the name it was registered with, for a later
// CREATE FUNCTION.
func (r *runner) dropFunction(s *sql.DropFunction) error {
	e := r.e
	name := strings.ToUpper(s.Name.Name)
	f := e.functions().Lookup(name)
	switch {
	case f == nil && s.IfExists:
		return nil
	case f == nil:
		return sql.Errorf(sql.ErrInvalid, s.Name.At, "function %s does not exist%s", s.Name.Name, sql.DidYouMean(name, e.functions().UserNames()))
	case !f.User:
		return sql.Errorf(sql.ErrInvalid, s.Name.At, "%s is a built-in function and cannot be dropped", name)
	}
	e.fns = e.functions().Without(name)
	return nil
}

// checkpointableFunctions refuses checkpointing a query with a user
// aggregate whose accumulators cannot be saved.
func checkpointableFunctions(p *planner.Plan) error {
	for ; p != nil; p = p.Input {
		for _, a := range p.Aggs {
			if a.Spec.User != nil && !a.Spec.User.Checkpointable() {
				return fmt.Errorf("%s cannot run with checkpoints ('%s' is set): the accumulator of function %s does not implement encoding.BinaryMarshaler and encoding.BinaryUnmarshaler, which save and restore it",
					a.Text, setting.CheckpointDir, a.Spec.User.Name())
			}
		}
	}
	return nil
}
