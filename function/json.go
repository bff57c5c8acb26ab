package function

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/expr/jsonfn"
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/windowop"
)

// init adds the family at its place in the registry.
func init() { addFamily(330, jsonFunctions) }

// jsonFunctions are Flink's JSON functions. Most have clauses of their own
// grammar (RETURNING, ON EMPTY, KEY ... VALUE), which the sql package reads
// into the call's sql.JSONClauses; a DEFAULT value is an argument after the
// path. Their kernels are exec/expr/jsonfn's.
var jsonFunctions = []Function{
	{Name: "IS JSON", Kind: ScalarFunction, Syntax: SyntaxOwnForm, Description: "whether the string is JSON (of the type: VALUE, the default, SCALAR, ARRAY or OBJECT); NULL is not",
		Signatures: []Signature{{Params: []Param{{Name: "s", Type: ArgString}}, Written: "s IS [NOT] JSON [VALUE|SCALAR|ARRAY|OBJECT]", Result: "BOOLEAN NOT NULL"}},
		Compile:    isJSONKernel},
	{Name: "JSON_EXISTS", Kind: ScalarFunction, Syntax: SyntaxOwnForm, Description: "whether the JSON path finds a value; FALSE ON ERROR unless said otherwise",
		Signatures: []Signature{{Params: jsonPathParams(0), Written: "JSON_EXISTS(json, path [{TRUE|FALSE|UNKNOWN|ERROR} ON ERROR])", Result: "BOOLEAN"}},
		Compile:    jsonExistsKernel},
	{Name: "JSON_STRING", Kind: ScalarFunction, Description: "the value serialized as JSON; NULL for NULL",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgAny}}, Result: "STRING"}},
		Compile: func(c Compiler, k *Call) (expr.Expr, error) {
			e := &jsonfn.Build{Name: "JSON_STRING", Args: k.Args, Raw: []bool{false}}
			return c.Fold(k.F.At, e, k.Args...)
		}},
	{Name: "JSON_VALUE", Kind: ScalarFunction, Syntax: SyntaxOwnForm, Description: "the scalar at the JSON path, as STRING or the RETURNING type (BOOLEAN, INT, BIGINT, DOUBLE); NULL ON EMPTY and NULL ON ERROR unless said otherwise",
		Signatures: []Signature{{Params: jsonPathParams(2),
			Written: "JSON_VALUE(json, path [RETURNING type] [{NULL|ERROR|DEFAULT x} ON EMPTY] [{NULL|ERROR|DEFAULT x} ON ERROR])", Result: "STRING, or the RETURNING type"}},
		Compile: jsonValueKernel},
	{Name: "JSON_QUERY", Kind: ScalarFunction, Syntax: SyntaxOwnForm, Description: "the object or array at the JSON path as JSON text, a scalar only in an array wrapper; NULL ON EMPTY and NULL ON ERROR unless said otherwise",
		Signatures: []Signature{{Params: jsonPathParams(0),
			Written: "JSON_QUERY(json, path [{WITHOUT|WITH CONDITIONAL|WITH UNCONDITIONAL} [ARRAY] WRAPPER] [{NULL|EMPTY ARRAY|EMPTY OBJECT|ERROR} ON EMPTY] [... ON ERROR])", Result: "STRING"}},
		Compile: jsonQueryKernel},
	{Name: "JSON_OBJECT", Kind: ScalarFunction, Syntax: SyntaxOwnForm, Description: "a JSON object of the key-value pairs, keys sorted; NULL ON NULL unless said otherwise",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgAny, Optional: true}}, Variadic: true,
			Written: "JSON_OBJECT([[KEY] k VALUE v, ...] [{NULL|ABSENT} ON NULL])", Result: "STRING NOT NULL"}},
		Compile: jsonBuildKernel},
	{Name: "JSON_ARRAY", Kind: ScalarFunction, Syntax: SyntaxOwnForm, Description: "a JSON array of the values; ABSENT ON NULL unless said otherwise",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgAny, Optional: true}}, Variadic: true,
			Written: "JSON_ARRAY([v, ...] [{NULL|ABSENT} ON NULL])", Result: "STRING NOT NULL"}},
		Compile: jsonBuildKernel},

	{Name: "JSON_OBJECTAGG", Kind: AggregateFunction, Syntax: SyntaxOwnForm, Description: "a JSON object of the group's key-value pairs, keys sorted; a key twice is an error; NULL ON NULL unless said otherwise",
		Signatures: []Signature{{Params: []Param{{Name: "k", Type: ArgString}, {Name: "v", Type: ArgAny}},
			Written: "JSON_OBJECTAGG([KEY] k VALUE v [{NULL|ABSENT} ON NULL])", Result: "STRING NOT NULL"}},
		Aggregate: &AggregateKernel{Kind: windowop.JSONObjectAgg, Arg: StringArg}},
	{Name: "JSON_ARRAYAGG", Kind: AggregateFunction, Syntax: SyntaxOwnForm, Description: "a JSON array of the group's values in arrival order; ABSENT ON NULL unless said otherwise",
		Signatures: []Signature{{Params: []Param{{Name: "x", Type: ArgAny}},
			Written: "JSON_ARRAYAGG(x [{NULL|ABSENT} ON NULL])", Result: "STRING NOT NULL"}},
		Aggregate: &AggregateKernel{Kind: windowop.JSONArrayAgg, Arg: StringArg}},
}

// jsonPathParams are a document and a path, then defaults DEFAULT values.
func jsonPathParams(defaults int) []Param {
	ps := []Param{{Name: "document", Type: argJSONText}, {Name: "path", Type: ArgString}}
	for range defaults {
		ps = append(ps, Param{Name: "default", Type: ArgAny, Optional: true})
	}
	return ps
}

// argJSONText is a JSON document: a STRING, or a number or BOOLEAN read as
// its text (Flink: JSON_QUERY(1, '$' WITH CONDITIONAL ARRAY WRAPPER) is
// '[1]').
var argJSONText = ArgType{Name: "STRING", Sample: "s", Check: func(c Compiler, k *Call, i int, _ Param) (err error) {
	dt := k.Args[i].DataType()
	if IsString(dt) || IsNull(dt) {
		k.Args[i], err = c.StringArg(k.Args[i], k.Pos[i], k.Name)
		return err
	}
	if !IsInteger(dt) && dt.ID() != arrow.BOOL && dt.ID() != arrow.FLOAT64 && dt.ID() != arrow.DECIMAL128 {
		return sql.Errorf(sql.ErrInvalid, k.Pos[i], "%s expects a JSON STRING, got %s", k.Name, TypeName(dt))
	}
	k.Args[i], err = c.To(k.Args[i], tString, k.Pos[i])
	return err
}}

// clauses are the call's JSON clauses (none for a call TiDB read as one).
func clauses(k *Call) *sql.JSONClauses {
	if k.F.JSON != nil {
		return k.F.JSON
	}
	return &sql.JSONClauses{}
}

var behaviors = map[string]jsonfn.Behavior{
	"": jsonfn.BehaviorNull, "NULL": jsonfn.BehaviorNull, "ERROR": jsonfn.BehaviorError, "DEFAULT": jsonfn.BehaviorDefault,
	"EMPTY ARRAY": jsonfn.BehaviorEmptyArray, "EMPTY OBJECT": jsonfn.BehaviorEmptyObject,
	"TRUE": jsonfn.BehaviorTrue, "FALSE": jsonfn.BehaviorFalse, "UNKNOWN": jsonfn.BehaviorUnknown,
}

// pathError places an error of a path wsql cannot run at the path.
func pathError(k *Call, err error) error {
	return sql.Errorf(sql.ErrUnsupported, k.Pos[1], "%s: %v", k.Name, err)
}

func isJSONKernel(c Compiler, k *Call) (expr.Expr, error) {
	cl := clauses(k)
	if cl.Type == "" {
		cl = &sql.JSONClauses{Type: "VALUE", Not: cl.Not}
	}
	e := &jsonfn.IsJSON{X: k.Args[0], Type: cl.Type, Not: cl.Not}
	return c.Fold(k.F.At, e, k.Args...)
}

func jsonExistsKernel(c Compiler, k *Call) (expr.Expr, error) {
	onError := jsonfn.BehaviorFalse // Flink: FALSE ON ERROR by default
	if b := clauses(k).OnError; b != "" {
		onError = behaviors[b]
	}
	e, err := jsonfn.NewExists(k.Args[0], k.Args[1], onError)
	if err != nil {
		return nil, pathError(k, err)
	}
	return c.Fold(k.F.At, e, k.Args...)
}

func jsonValueKernel(c Compiler, k *Call) (expr.Expr, error) {
	cl := clauses(k)
	var ret arrow.DataType = tString
	if tn := cl.Returning; tn != nil {
		dt, err := catalog.ArrowType(*tn)
		ok := err == nil
		if ok {
			ok = false
			for _, t := range jsonfn.ValueTypes {
				ok = ok || arrow.TypeEqual(t, dt)
			}
		}
		if !ok {
			return nil, sql.Errorf(sql.ErrUnsupported, tn.At, "JSON_VALUE cannot return %s; RETURNING takes STRING, BOOLEAN, INT, BIGINT or DOUBLE", catalog.TypeString(*tn))
		}
		ret = dt
	}
	e, err := jsonfn.NewValue(k.Args[0], k.Args[1], ret)
	if err != nil {
		return nil, pathError(k, err)
	}
	e.OnEmpty, e.OnError = behaviors[cl.OnEmpty], behaviors[cl.OnError]
	defaults := k.Args[2:]
	want := 0
	for _, b := range []jsonfn.Behavior{e.OnEmpty, e.OnError} {
		if b == jsonfn.BehaviorDefault {
			want++
		}
	}
	if len(defaults) != want {
		return nil, sql.Errorf(sql.ErrSyntax, k.F.At, "JSON_VALUE takes a DEFAULT value only in DEFAULT x ON EMPTY or DEFAULT x ON ERROR")
	}
	for n, slot := range []*expr.Expr{&e.EmptyDefault, &e.ErrorDefault} {
		if []jsonfn.Behavior{e.OnEmpty, e.OnError}[n] != jsonfn.BehaviorDefault {
			continue
		}
		d, pos := defaults[0], k.Pos[len(k.Pos)-len(defaults)]
		defaults = defaults[1:]
		if ret.ID() != arrow.STRING || IsNull(d.DataType()) {
			if d, err = c.To(d, ret, pos); err != nil {
				return nil, err
			}
		}
		// A STRING result takes the default as Flink's String.valueOf
		// writes it (FALSE is 'false'): the kernel writes it per row.
		*slot = d
	}
	return c.Fold(k.F.At, e, k.Args...)
}

func jsonQueryKernel(c Compiler, k *Call) (expr.Expr, error) {
	cl := clauses(k)
	if tn := cl.Returning; tn != nil {
		if dt, err := catalog.ArrowType(*tn); err != nil || dt.ID() != arrow.STRING {
			return nil, sql.Errorf(sql.ErrUnsupported, tn.At, "JSON_QUERY cannot return %s yet; it returns STRING", catalog.TypeString(*tn))
		}
	}
	e, err := jsonfn.NewQuery(k.Args[0], k.Args[1])
	if err != nil {
		return nil, pathError(k, err)
	}
	e.Wrapper = map[string]jsonfn.Wrapper{"CONDITIONAL": jsonfn.ConditionalWrapper, "UNCONDITIONAL": jsonfn.UnconditionalWrapper}[cl.Wrapper]
	e.OnEmpty, e.OnError = behaviors[cl.OnEmpty], behaviors[cl.OnError]
	return c.Fold(k.F.At, e, k.Args...)
}

// jsonBuildKernel is JSON_OBJECT and JSON_ARRAY. A value that is itself a
// JSON_OBJECT or JSON_ARRAY call is inserted as JSON, not as a string.
func jsonBuildKernel(c Compiler, k *Call) (expr.Expr, error) {
	cl := clauses(k)
	e := &jsonfn.Build{Name: k.Name, Args: k.Args, Raw: make([]bool, len(k.Args))}
	// Flink: JSON_OBJECT is NULL ON NULL, JSON_ARRAY ABSENT ON NULL.
	e.AbsentOnNull = cl.OnNull == "ABSENT" || (cl.OnNull == "" && k.Name == "JSON_ARRAY")
	for i, a := range k.F.Args {
		if f, ok := a.(*sql.FuncCall); ok && (f.Name == "JSON_OBJECT" || f.Name == "JSON_ARRAY") {
			e.Raw[i] = true
		}
	}
	if k.Name == "JSON_OBJECT" {
		if len(k.Args)%2 != 0 {
			return nil, sql.Errorf(sql.ErrSyntax, k.F.At, "JSON_OBJECT takes KEY k VALUE v pairs")
		}
		for i := 0; i < len(k.Args); i += 2 {
			dt := k.Args[i].DataType()
			switch {
			case IsNull(dt):
				return nil, sql.Errorf(sql.ErrInvalid, k.Pos[i], "a key of JSON_OBJECT cannot be NULL")
			case !IsString(dt):
				return nil, sql.Errorf(sql.ErrInvalid, k.Pos[i], "a key of JSON_OBJECT must be a STRING, got %s", TypeName(dt))
			}
		}
	}
	for i, a := range k.Args {
		if IsNull(a.DataType()) {
			k.Args[i] = expr.NullLiteral(tString) // an untyped NULL is a null value
		}
	}
	return c.Fold(k.F.At, e, k.Args...)
}
