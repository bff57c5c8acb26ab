package jsonfn

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
)

func str(s string) expr.Expr { return &expr.Literal{Type: arrow.BinaryTypes.String, Str: s} }

var nullStr = expr.NullLiteral(arrow.BinaryTypes.String)

// one evaluates e over a one-row batch; "NULL" for NULL.
func one(t *testing.T, e expr.Expr) (string, error) {
	t.Helper()
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	schema := arrow.NewSchema([]arrow.Field{{Name: "x", Type: arrow.PrimitiveTypes.Int64}}, nil)
	b := array.NewInt64Builder(mem)
	b.Append(1)
	col := b.NewArray()
	b.Release()
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, 1)
	col.Release()
	defer rec.Release()
	a, err := e.Eval(rec, mem)
	if err != nil {
		return "", err
	}
	defer a.Release()
	if a.IsNull(0) {
		return "NULL", nil
	}
	return a.ValueStr(0), nil
}

func value(t *testing.T, doc expr.Expr, path string, ret arrow.DataType, set func(*Value)) (string, error) {
	v, err := NewValue(doc, str(path), ret)
	require.NoError(t, err)
	if set != nil {
		set(v)
	}
	return one(t, v)
}

// Flink's documented JSON_VALUE examples (sql_functions.yml, json section).
func TestValueFlinkExamples(t *testing.T) {
	s := arrow.BinaryTypes.String
	got, _ := value(t, str(`{"a": true}`), "$.a", s, nil)
	require.Equal(t, "true", got)
	got, _ = value(t, str(`{"a": true}`), "$.a", arrow.FixedWidthTypes.Boolean, nil)
	require.Equal(t, "true", got)
	got, _ = value(t, str(`{"a": true}`), "lax $.b", s, func(v *Value) { v.OnEmpty, v.EmptyDefault = BehaviorDefault, str("false") })
	require.Equal(t, "false", got)
	got, _ = value(t, str(`{"a": true}`), "strict $.b", s, func(v *Value) { v.OnError, v.ErrorDefault = BehaviorDefault, str("false") })
	require.Equal(t, "false", got)
	got, _ = value(t, str(`{"a.b": [0.998,0.996]}`), `$.["a.b"][0]`, arrow.PrimitiveTypes.Float64, nil)
	require.Equal(t, "0.998", got)
	got, _ = value(t, str(`{"contains blank": "right"}`), `strict $.['contains blank']`, s, func(v *Value) { v.OnError, v.ErrorDefault = BehaviorDefault, str("wrong") })
	require.Equal(t, "right", got)
	got, _ = value(t, str(`{"a b": "true"}`), `$.['a b']`, s, nil)
	require.Equal(t, "true", got)
}

func TestValueSemantics(t *testing.T) {
	s := arrow.BinaryTypes.String
	for _, c := range []struct{ doc, path, want string }{
		{`{"a":1,"b":"x"}`, "$.a", "1"},
		{`{"a":1,"b":"x"}`, "$.b", "x"},
		{`{"a":{"b":[1,2,{"c":"\u0041\n"}]}}`, "$.a.b[2].c", "A\n"},
		{`{"a":[1,2,3]}`, "$.a[-1]", "3"},
		{`{"a":[1,2,3]}`, "$.a[3]", "NULL"},
		{`{"a":null}`, "$.a", "NULL"},
		{`{"a":{"b":1}}`, "$.a", "NULL"},        // not a scalar
		{`{"a":1.50}`, "$.a", "1.50"},           // BigDecimal keeps the scale
		{`{"a":1e2}`, "$.a", "1E+2"},            // BigDecimal.toString
		{`{"a":0.0000001}`, "$.a", "1E-7"},      // BigDecimal.toString
		{`{"a":-0}`, "$.a", "0"},                // an int
		{`{"a":1,"a":2}`, "$.a", "2"},           // the last duplicate wins
		{`{"a":1}`, "a", "1"},                   // Jayway reads a path without $ from the root
		{`{"a":1} x`, "$.a", "NULL"},            // not JSON
		{`{"a":01}`, "$.a", "NULL"},             // not JSON
		{`{"a":[1,2]}`, "$.a[*]", "NULL"},       // a list is not a scalar
		{`{"a":1}`, "$.a.", "NULL"},             // an invalid path is an error of the row
		{`{"x":{"a":1},"a":2}`, "$..a", "NULL"}, // a list
	} {
		got, err := value(t, str(c.doc), c.path, s, nil)
		require.NoError(t, err)
		require.Equal(t, c.want, got, "%s %s", c.doc, c.path)
	}
	got, err := value(t, nullStr, "$.a", s, nil)
	require.NoError(t, err)
	require.Equal(t, "NULL", got)

	_, err = value(t, str(`{"a":1}`), "strict $.b", s, func(v *Value) { v.OnError = BehaviorError })
	require.ErrorContains(t, err, "no value at path 'strict $.b'")
	_, err = value(t, str(`{"a":1}`), "lax $.b", s, func(v *Value) { v.OnEmpty = BehaviorError })
	require.ErrorContains(t, err, "ERROR ON EMPTY")
	_, err = value(t, str(`{"a":"x"}`), "$.a", arrow.PrimitiveTypes.Int64, func(v *Value) { v.OnError = BehaviorError })
	require.ErrorContains(t, err, `JSON_VALUE: cannot read "x" as BIGINT`)
	_, err = value(t, str(`{"a":{"b":1}}`), "$.a", s, func(v *Value) { v.OnError = BehaviorError })
	require.ErrorContains(t, err, `JSON_VALUE: strict mode requires a scalar value at path '$.a'`)
	for doc, want := range map[string]string{`{"a":"TRUE"}`: "true", `{"a":"fAlse"}`: "false", `{"a":"yes"}`: "NULL", `{"a":" true"}`: "NULL"} {
		got, _ = value(t, str(doc), "$.a", arrow.FixedWidthTypes.Boolean, nil)
		require.Equal(t, want, got, doc)
	}
	for doc, want := range map[string]string{`{"a":"+7"}`: "7", `{"a":" -8 "}`: "-8", `{"a":"1x"}`: "NULL", `{"a":"9223372036854775808"}`: "NULL", `{"a":"-9223372036854775808"}`: "-9223372036854775808"} {
		got, _ = value(t, str(doc), "$.a", arrow.PrimitiveTypes.Int64, nil)
		require.Equal(t, want, got, doc)
	}
	got, _ = value(t, str(`{"a":"x"}`), "$.a", arrow.PrimitiveTypes.Int32, func(v *Value) {
		v.OnError, v.ErrorDefault = BehaviorDefault, &expr.Literal{Type: arrow.PrimitiveTypes.Int32, Int: -1}
	})
	require.Equal(t, "-1", got)
	got, _ = value(t, str(`{"a":"12"}`), "$.a", arrow.PrimitiveTypes.Int64, nil)
	require.Equal(t, "12", got)

	_, err = CompilePath("$.a[?(@.b)]")
	require.ErrorContains(t, err, "not supported yet")
}

func query(t *testing.T, doc expr.Expr, path string, set func(*Query)) string {
	q, err := NewQuery(doc, str(path))
	require.NoError(t, err)
	if set != nil {
		set(q)
	}
	got, err := one(t, q)
	require.NoError(t, err)
	return got
}

// Flink's documented JSON_QUERY examples; Flink writes compact JSON (the
// docs' '{ "b": 1 }' is written {"b":1}).
func TestQueryFlinkExamples(t *testing.T) {
	require.Equal(t, `{"b":1}`, query(t, str(`{ "a": { "b": 1 } }`), "$.a", nil))
	require.Equal(t, `[1,2]`, query(t, str(`[1, 2]`), "$", nil))
	require.Equal(t, `NULL`, query(t, nullStr, "$", nil))
	require.Equal(t, `["c1","c2"]`, query(t, str(`{"a":[{"c":"c1"},{"c":"c2"}]}`), "lax $.a[*].c", nil))
	require.Equal(t, `[{}]`, query(t, str(`{}`), "$", func(q *Query) { q.Wrapper = ConditionalWrapper }))
	require.Equal(t, `[1,2]`, query(t, str(`[1, 2]`), "$", func(q *Query) { q.Wrapper = ConditionalWrapper }))
	require.Equal(t, `[[1,2]]`, query(t, str(`[1, 2]`), "$", func(q *Query) { q.Wrapper = UnconditionalWrapper }))
	require.Equal(t, `NULL`, query(t, str(`1`), "$", nil))
	require.Equal(t, `[1]`, query(t, str(`1`), "$", func(q *Query) { q.Wrapper = ConditionalWrapper }))
	require.Equal(t, `{}`, query(t, str(`{}`), "lax $.invalid", func(q *Query) { q.OnEmpty = BehaviorEmptyObject }))
	require.Equal(t, `[]`, query(t, str(`{}`), "strict $.invalid", func(q *Query) { q.OnError = BehaviorEmptyArray }))
	// Jackson sorts keys and keeps the last duplicate.
	require.Equal(t, `{"a":[true,null,"x\"y"],"b":2}`, query(t, str(`{"b":1,"a":[true, null, "x\"y"],"b":2}`), "$", nil))
	require.Equal(t, `[2,1]`, query(t, str(`{"x":{"a":1},"a":2}`), "$..a", nil))
}

// Flink's documented JSON_EXISTS examples.
func TestExistsFlinkExamples(t *testing.T) {
	ex := func(doc, path string, onError Behavior) string {
		e, err := NewExists(str(doc), str(path), onError)
		require.NoError(t, err)
		got, err := one(t, e)
		require.NoError(t, err)
		return got
	}
	require.Equal(t, "true", ex(`{"a": true}`, "$.a", BehaviorFalse))
	require.Equal(t, "false", ex(`{"a": true}`, "$.b", BehaviorFalse))
	require.Equal(t, "true", ex(`{"a": [{ "b": 1 }]}`, "$.a[0].b", BehaviorFalse))
	require.Equal(t, "true", ex(`{"a": true}`, "strict $.b", BehaviorTrue))
	require.Equal(t, "false", ex(`{"a": true}`, "strict $.b", BehaviorFalse))
	require.Equal(t, "NULL", ex(`{"a": true}`, "strict $.b", BehaviorUnknown))
	require.Equal(t, "false", ex(`{"a": true}`, "lax $.b", BehaviorTrue))
}

// Flink's documented IS JSON examples.
func TestIsJSONFlinkExamples(t *testing.T) {
	is := func(x expr.Expr, typ string) string {
		got, err := one(t, &IsJSON{X: x, Type: typ})
		require.NoError(t, err)
		return got
	}
	for _, s := range []string{"1", "[]", "{}", `"abc"`} {
		require.Equal(t, "true", is(str(s), "VALUE"), s)
	}
	require.Equal(t, "false", is(str("abc"), "VALUE"))
	require.Equal(t, "false", is(nullStr, "VALUE"))
	require.Equal(t, "true", is(str("1"), "SCALAR"))
	require.Equal(t, "false", is(str("1"), "ARRAY"))
	require.Equal(t, "false", is(str("1"), "OBJECT"))
	require.Equal(t, "false", is(str("{}"), "SCALAR"))
	require.Equal(t, "false", is(str("{}"), "ARRAY"))
	require.Equal(t, "true", is(str("{}"), "OBJECT"))
	got, _ := one(t, &IsJSON{X: nullStr, Type: "VALUE", Not: true})
	require.Equal(t, "true", got)
}

func TestJavaDouble(t *testing.T) {
	for f, want := range map[float64]string{1: "1.0", 1e20: "1.0E20", 1e-5: "1.0E-5", 0.1: "0.1", 1234567.5: "1234567.5", 12345678: "1.2345678E7"} {
		require.Equal(t, want, string(AppendJavaDouble(nil, f, 64)))
	}
}
