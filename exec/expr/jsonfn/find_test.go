package jsonfn

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/expr"
)

// findDocs are documents for the names reader, valid and not; each is
// also tried cut short and with bytes replaced.
var findDocs = []string{
	`{"a":42,"b":"x2"}`, ` { "a" : 1 , "b" : "y" } `, `{"b":1,"b":2}`, `{"b":"1","a":{"b":3}}`, `{}`, ` {} `,
	`{"a":[1,{"b":2}],"b":null}`, `{"b":-0.5e+3}`, `{"b":0}`, `{"b":01}`, `{"b":1.}`, `{"b":1x}`, `{"b":12,}`,
	`{"b":"a\"b\\c\u00e9"}`, `{"\u0062":7}`, `{"b\n":1}`, `{"bb":1,"b":true}`, `{"b":false,"c":"é"}`,
	`{"b":"tab	in"}`, `[{"b":1}]`, `"b"`, `12`, ``, `   `, `{"b":1} x`, `{"b":1}}`, `{"b" 1}`, `{"b":}`,
	`{b:1}`, `{"b":'x'}`, `{"b":[1,2,]}`, `{"b":{"c":[true,false,null]}}`, `{"b":1e5,"a":2E-3}`,
	`{"b":123456789012345678901234}`, `{"b":"\ud83d\ude00"}`, `{"b":"\x"}`, "{\"b\":\"\x01\"}", `{"a":1,}`,
	`{"b":"x","b":"a\"b"}`, `{"b":"x","\u0062":"a\"b"}`, `{"b":"x","c":"y"}`, `{"b":"x","b":1}`, `{"b":99:1}`,
	`{"b":7]`, `{"b":7 , }`, `{"a":"b","b":"a"}`, `{"b":-}`, `{"b":-1}`, `{"b":nul}`,
	// nested objects, for paths of several names
	`{"user":{"id":7,"name":"x"},"user":{"name":"y"}}`, `{"a":{"b":{"c":1}}}`, `{"a":{"b":1},"a":{"x":2}}`,
	`{"a":{"x":2},"a":{"b":1}}`, `{"a":{"b":"q\"r"}}`, `{"a":{"\u0062":1}}`, `{"a":[{"b":1}]}`, `{"a":{"b":{}}}`,
	`{"b":{"c":"x"},"a":5}`, `{"a":{"b":2,"b":{"c":3}}}`, `{"a":{"b":{"c":"d"},"c":1},"b":{"c":2}}`, `{"a":{}}`,
	`{"a":null,"b":{"c":null}}`, `{"a":{"b":1}, "a":7}`, `{"user":{"id":"12","country":"DE"},"items":[1]}`,
}

// findPaths are the paths of names the reader is tried with.
var findPaths = [][]string{{"b"}, {"a"}, {""}, {"bb"}, {"\n"}, {"a", "b"}, {"b", "c"}, {"a", "b", "c"}, {"user", "id"}, {"a", "x"}}

func nameSteps(names []string) []step {
	steps := make([]step, len(names))
	for k, n := range names {
		steps[k] = step{kind: stepName, name: n}
	}
	return steps
}

// sameFind checks that findNames finds what find finds in doc.
func sameFind(t testing.TB, doc string, steps []step) {
	var general, fast reader
	ok1, found1 := general.find(doc, steps)
	ok2, found2 := fast.findNames(doc, steps)
	require.Equal(t, ok1, ok2, "ok of %v in %q", steps, doc)
	require.Equal(t, ok1 && found1, ok2 && found2, "found %v in %q", steps, doc)
	if !ok1 || !found1 {
		return
	}
	require.Equal(t, general.value, fast.value, "%v in %q", steps, doc)
	v := doc[fast.value.start:fast.value.end]
	switch fast.shape {
	case shapePlainString:
		require.True(t, v[0] == '"' && !strings.Contains(v, `\`), "plain %q in %q", v, doc)
	case shapeSmallInt:
		require.Regexp(t, `^[1-9][0-9]{0,17}$`, v, "%v in %q", steps, doc)
	}
}

// The names reader (findNames) finds what find finds, on every document
// and each cut and changed form of it.
func TestFindNamesAgreesWithFind(t *testing.T) {
	var docs []string
	for _, d := range findDocs {
		docs = append(docs, d)
		for k := range len(d) {
			docs = append(docs, d[:k])
			for _, c := range []byte{'"', '\\', ',', '}', '{', ' ', '1', 'x', 0} {
				docs = append(docs, d[:k]+string(c)+d[k+1:])
			}
		}
	}
	for _, names := range findPaths {
		steps := nameSteps(names)
		for _, d := range docs {
			sameFind(t, d, steps)
		}
	}
	// Jackson's nesting limit holds on the path as off it.
	for _, depth := range []int{maxDepth - 1, maxDepth, maxDepth + 1} {
		doc := strings.Repeat(`{"a":`, depth) + "1" + strings.Repeat("}", depth)
		for _, n := range []int{1, depth - 1, depth} {
			sameFind(t, doc, nameSteps(strings.Split(strings.TrimSuffix(strings.Repeat("a.", n), "."), ".")))
		}
	}
}

func TestNamesPaths(t *testing.T) {
	for spec, names := range map[string]bool{"$.b": true, "lax $.b": true, "strict $['b']": true, "$.a.b": true, "$.user['id']": true,
		"$[0]": false, "$.a[0]": false, "$.*": false, "$": false, "$..b": false, "$.a[-1]": false} {
		p, err := CompilePath(spec)
		require.NoError(t, err)
		require.Equal(t, names, p.names, spec)
	}
}

func FuzzFindNames(f *testing.F) {
	for i, d := range findDocs {
		f.Add(d, strings.Join(findPaths[i%len(findPaths)], "."))
	}
	f.Fuzz(func(t *testing.T, doc, path string) {
		sameFind(t, doc, nameSteps(strings.Split(path, ".")))
	})
}

// JSON_VALUE over a column through the names reader: a string without
// escapes is copied as it is, the last of duplicate names wins, escaped
// names and values are decoded.
func TestValueNamesColumn(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	defer mem.AssertSize(t, 0)
	docs := []string{`{"b":"x","b":"a\"b"}`, `{"b":"x","\u0062":"a\"b"}`, ` {"a":1, "b" : "plain"} `, `{"b":"x","b":1}`,
		`{"b":"é"}`, `{"b":"x"} x`, `{"c":"x"}`, `{"b":null}`, `{"b":{"c":1}}`, `{"b":true,"b":"y"}`}
	sb := array.NewStringBuilder(mem)
	sb.AppendValues(docs, nil)
	col := sb.NewArray()
	sb.Release()
	schema := arrow.NewSchema([]arrow.Field{{Name: "doc", Type: arrow.BinaryTypes.String}}, nil)
	rec := array.NewRecordBatch(schema, []arrow.Array{col}, int64(len(docs)))
	col.Release()
	defer rec.Release()
	v, err := NewValue(&expr.ColumnExpr{Index: 0, Name: "doc", Type: arrow.BinaryTypes.String}, str("$.b"), arrow.BinaryTypes.String)
	require.NoError(t, err)
	out, err := v.Eval(rec, mem)
	require.NoError(t, err)
	defer out.Release()
	require.Equal(t, `["a\"b" "a\"b" "plain" "1" "é" (null) (null) (null) (null) "y"]`, fmt.Sprint(out))
	ints := []string{`{"b":123456789012345678}`, `{"b":1234567890123456789}`, `{"b":12.5}`, `{"b":-5}`, `{"b":" 7"}`,
		`{"b":0}`, `{"b":1e3}`, `{"b":5,"b":"x"}`, `{"b":"x","b":5}`, `{"b":42 }`, `{"b":42}x`, `{"b":99999999999999999999}`}
	ib := array.NewStringBuilder(mem)
	ib.AppendValues(ints, nil)
	icol := ib.NewArray()
	ib.Release()
	irec := array.NewRecordBatch(schema, []arrow.Array{icol}, int64(len(ints)))
	icol.Release()
	defer irec.Release()
	v, err = NewValue(&expr.ColumnExpr{Index: 0, Name: "doc", Type: arrow.BinaryTypes.String}, str("$.b"), arrow.PrimitiveTypes.Int64)
	require.NoError(t, err)
	iout, err := v.Eval(irec, mem)
	require.NoError(t, err)
	defer iout.Release()
	require.Equal(t, `[123456789012345678 1234567890123456789 (null) -5 7 0 (null) (null) 5 42 (null) (null)]`, fmt.Sprint(iout))
	nested := []string{`{"user":{"id":7,"country":"DE"}}`, `{"user":{"id":7},"user":{"name":"y"}}`, `{"user":{"id":"a\"b"}}`,
		`{"user":[{"id":1}]}`, `{"user":{"\u0069d":3}}`, `{"x":1,"user":{"id":{"z":1}}}`}
	nb := array.NewStringBuilder(mem)
	nb.AppendValues(nested, nil)
	ncol := nb.NewArray()
	nb.Release()
	nrec := array.NewRecordBatch(schema, []arrow.Array{ncol}, int64(len(nested)))
	ncol.Release()
	defer nrec.Release()
	v, err = NewValue(&expr.ColumnExpr{Index: 0, Name: "doc", Type: arrow.BinaryTypes.String}, str("lax $.user.id"), arrow.BinaryTypes.String)
	require.NoError(t, err)
	nout, err := v.Eval(nrec, mem)
	require.NoError(t, err)
	defer nout.Release()
	require.Equal(t, `["7" (null) "a\"b" (null) "3" (null)]`, fmt.Sprint(nout))
	var r reader
	ok, found := r.findNames(`{"a":42,"b":"x2"}`, []step{{kind: stepName, name: "b"}})
	require.True(t, ok && found && r.shape == shapePlainString)
	ok, found = r.findNames(`{"a":42,"b":"x2"}`, []step{{kind: stepName, name: "a"}})
	require.True(t, ok && found && r.shape == shapeSmallInt)
}
