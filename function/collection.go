package function

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/exec/expr"
	"github.com/wsql/wsql/exec/expr/nestedfn"
	"github.com/wsql/wsql/exec/format"
	"github.com/wsql/wsql/sql"
)

// init adds the family at its place in the registry.
func init() { addFamily(340, collectionFunctions) }

// collectionFunctions are Flink's collection functions and value
// constructors (its "collection" and "valueconstruction" sections). Value
// access, row.field, arr[i] and m[key], has its own syntax
// (planner/value_access.go).
var collectionFunctions = []Function{
	{Name: "CARDINALITY", Kind: ScalarFunction, Description: "the number of elements of an ARRAY or MULTISET, or of entries of a MAP",
		Signatures: []Signature{{Params: []Param{{Name: "collection", Type: argCollection}}, Result: "INT"}},
		Compile:    compileCardinality},
	{Name: "ELEMENT", Kind: ScalarFunction, Description: "the sole element of an ARRAY of one; NULL when empty; an error for more",
		Signatures: []Signature{{Params: []Param{{Name: "array", Type: argArray}}, Result: "the element type"}},
		Compile:    compileElement},
	{Name: "MAP_KEYS", Kind: ScalarFunction, Description: "the keys of a MAP as an ARRAY",
		Signatures: []Signature{{Params: []Param{{Name: "map", Type: argMap}}, Result: "ARRAY of the key type"}},
		Compile:    compileEntries(false)},
	{Name: "MAP_VALUES", Kind: ScalarFunction, Description: "the values of a MAP as an ARRAY",
		Signatures: []Signature{{Params: []Param{{Name: "map", Type: argMap}}, Result: "ARRAY of the value type"}},
		Compile:    compileEntries(true)},
	{Name: "ARRAY_CONTAINS", Kind: ScalarFunction, Description: "whether an ARRAY holds an element (a NULL one too); NULL for a NULL ARRAY",
		Signatures: []Signature{{Params: []Param{{Name: "haystack", Type: argArray}, {Name: "needle", Type: argElement}}, Result: "BOOLEAN"}},
		Compile:    compileNeedle(func(x, needle expr.Expr) expr.Expr { return &nestedfn.Contains{X: x, Needle: needle} })},
	{Name: "ARRAY_DISTINCT", Kind: ScalarFunction, Description: "the ARRAY without repeated elements, in order",
		Signatures: []Signature{{Params: []Param{{Name: "haystack", Type: argArray}}, Result: "the ARRAY's type"}},
		Compile:    compileDistinct},
	{Name: "ARRAY_POSITION", Kind: ScalarFunction, Description: "the 1-based position of an element's first occurrence, 0 when absent",
		Signatures: []Signature{{Params: []Param{{Name: "haystack", Type: argArray}, {Name: "needle", Type: argElement}}, Result: "INT"}},
		Compile:    compileNeedle(func(x, needle expr.Expr) expr.Expr { return &nestedfn.Position{X: x, Needle: needle} })},
	{Name: "ARRAY_REMOVE", Kind: ScalarFunction, Description: "the ARRAY without the elements equal to one",
		Signatures: []Signature{{Params: []Param{{Name: "haystack", Type: argArray}, {Name: "needle", Type: argElement}}, Result: "the ARRAY's type"}},
		Compile:    compileRemove},
	{Name: "ARRAY_REVERSE", Kind: ScalarFunction, Description: "the ARRAY in reverse order; NULL for a NULL ARRAY",
		Signatures: []Signature{{Params: []Param{{Name: "haystack", Type: argArray}}, Result: "the ARRAY's type"}},
		Compile:    compileReverse},
	{Name: "MAP_FROM_ARRAYS", Kind: ScalarFunction, Description: "a MAP from an ARRAY of keys and an ARRAY of values of the same length",
		Signatures: []Signature{{Params: []Param{{Name: "keys", Type: argArray}, {Name: "values", Type: argArray}}, Result: "MAP of the element types"}},
		Compile:    compileFromArrays},
	{Name: "ARRAY_APPEND", Kind: ScalarFunction, Description: "the ARRAY with an element (NULL too) added at its end; NULL for a NULL ARRAY",
		Signatures: []Signature{{Params: []Param{{Name: "array", Type: argArray}, {Name: "element", Type: argElement}}, Result: "the ARRAY's type"}},
		Compile:    compileAppend(false)},
	{Name: "ARRAY_PREPEND", Kind: ScalarFunction, Description: "the ARRAY with an element (NULL too) added at its beginning; NULL for a NULL ARRAY",
		Signatures: []Signature{{Params: []Param{{Name: "array", Type: argArray}, {Name: "element", Type: argElement}}, Result: "the ARRAY's type"}},
		Compile:    compileAppend(true)},
	{Name: "ARRAY_CONCAT", Kind: ScalarFunction, Description: "the elements of the ARRAYs one after the other; NULL when any is NULL",
		Signatures: []Signature{{Params: []Param{{Name: "array", Type: argArray}}, Variadic: true, Result: "the ARRAYs' type"}},
		Compile:    compileConcat},
	{Name: "ARRAY_SLICE", Kind: ScalarFunction, Description: "the elements from 1-based offset start to end, both included; a negative offset counts from the end",
		Signatures: []Signature{{Params: []Param{{Name: "array", Type: argArray}, {Name: "start_offset", Type: ArgInteger}, {Name: "end_offset", Type: ArgInteger, Optional: true}}, Result: "the ARRAY's type"}},
		Compile:    compileSlice},
	{Name: "ARRAY_SORT", Kind: ScalarFunction, Description: "the ARRAY sorted, ascending by default; NULLs first when ascending, last when descending, unless null_first says",
		Signatures: []Signature{{Params: []Param{{Name: "array", Type: argArray}, {Name: "ascending_order", Type: ArgBoolean, Optional: true}, {Name: "null_first", Type: ArgBoolean, Optional: true}}, Result: "the ARRAY's type"}},
		Compile:    compileSort},
	{Name: "ARRAY_UNION", Kind: ScalarFunction, Description: "the elements of both ARRAYs without duplicates; NULL when either is NULL",
		Signatures: []Signature{{Params: []Param{{Name: "array1", Type: argArray}, {Name: "array2", Type: argArray}}, Result: "the ARRAYs' type"}},
		Compile:    compileSetOf(nestedfn.Union)},
	{Name: "ARRAY_INTERSECT", Kind: ScalarFunction, Description: "the elements of array1 also in array2, without duplicates, in array1's order; NULL when either is NULL",
		Signatures: []Signature{{Params: []Param{{Name: "array1", Type: argArray}, {Name: "array2", Type: argArray}}, Result: "the ARRAYs' type"}},
		Compile:    compileSetOf(nestedfn.Intersect)},
	{Name: "ARRAY_EXCEPT", Kind: ScalarFunction, Description: "the elements of array1 not in array2, without duplicates, in array1's order; NULL when either is NULL",
		Signatures: []Signature{{Params: []Param{{Name: "array1", Type: argArray}, {Name: "array2", Type: argArray}}, Result: "the ARRAYs' type"}},
		Compile:    compileSetOf(nestedfn.Except)},
	{Name: "ARRAY_MAX", Kind: ScalarFunction, Description: "the largest element, NULLs left out; NULL for a NULL or empty ARRAY",
		Signatures: []Signature{{Params: []Param{{Name: "array", Type: argArray}}, Result: "the element type"}},
		Compile:    compileExtreme(true)},
	{Name: "ARRAY_MIN", Kind: ScalarFunction, Description: "the smallest element, NULLs left out; NULL for a NULL or empty ARRAY",
		Signatures: []Signature{{Params: []Param{{Name: "array", Type: argArray}}, Result: "the element type"}},
		Compile:    compileExtreme(false)},
	{Name: "ARRAY_JOIN", Kind: ScalarFunction, Description: "the STRING elements joined by a delimiter; NULL elements left out or written as null_replacement",
		Signatures: []Signature{{Params: []Param{{Name: "array", Type: argStringArray}, {Name: "delimiter", Type: ArgString}, {Name: "null_replacement", Type: ArgString, Optional: true}}, Result: "STRING"}},
		Compile:    compileJoin},
	{Name: "MAP_ENTRIES", Kind: ScalarFunction, Description: "the entries of a MAP as an ARRAY of ROW<key, value>",
		Signatures: []Signature{{Params: []Param{{Name: "map", Type: argMap}}, Result: "ARRAY of ROW<key, value>"}},
		Compile:    compileMapEntries},
	{Name: "MAP_UNION", Kind: ScalarFunction, Description: "the entries of the MAPs, a later MAP's value replacing an earlier one's; NULL when any is NULL",
		Signatures: []Signature{{Params: []Param{{Name: "map", Type: argMap}}, Variadic: true, Result: "the MAPs' type"}},
		Compile:    compileMapUnion},
	{Name: "SPLIT", Kind: ScalarFunction, Description: "the pieces of a STRING between the delimiters, empty ones kept; every character for an empty delimiter",
		Signatures: []Signature{{Params: []Param{{Name: "string", Type: ArgString}, {Name: "delimiter", Type: ArgString}}, Result: "ARRAY<STRING>"}},
		Compile:    compileSplit},
	{Name: "ARRAY", Kind: ScalarFunction, Description: "ARRAY[v1, v2, ...]: an ARRAY of the values",
		Signatures: []Signature{{Params: []Param{{Name: "value", Type: ArgAny}}, Variadic: true, Result: "ARRAY of the values' common type", Written: "ARRAY[value, ...]"}},
		Compile:    compileArray},
	{Name: "MAP", Kind: ScalarFunction, Description: "MAP[k1, v1, k2, v2, ...]: a MAP of the key-value pairs",
		Signatures: []Signature{{Params: []Param{{Name: "key", Type: ArgAny}, {Name: "value", Type: ArgAny}}, Variadic: true, Result: "MAP of the keys' and the values' common types", Written: "MAP[key, value, ...]"}},
		Compile:    compileMap},
	{Name: "OBJECT_OF", Kind: ScalarFunction, Description: "a value of the structured type of a Java class from key-value pairs",
		Signatures:  []Signature{{Params: []Param{{Name: "class_name", Type: ArgString}, {Name: "key", Type: ArgString}, {Name: "value", Type: ArgAny}}, Variadic: true, Result: "STRUCTURED"}},
		Unsupported: "structured types (Java classes) are not supported; ROW(...) builds a row of values"},
	{Name: "OBJECT_UPDATE", Kind: ScalarFunction, Description: "a structured value with fields replaced by key-value pairs",
		Signatures:  []Signature{{Params: []Param{{Name: "object", Type: ArgAny}, {Name: "key", Type: ArgString}, {Name: "value", Type: ArgAny}}, Variadic: true, Result: "the object's type"}},
		Unsupported: "structured types (Java classes) are not supported"},
	{Name: "ROW", Kind: ScalarFunction, Description: "ROW(v1, v2, ...) or (v1, v2, ...): a ROW of the values",
		Signatures: []Signature{{Params: []Param{{Name: "value", Type: ArgAny}}, Variadic: true, Result: "ROW of the values' types"}},
		Compile:    compileRow},
}

// The collection arguments; the kernels check the kind (collectionArg).
var (
	argArray      = ArgType{Name: "ARRAY", Sample: "arr"}
	argMap        = ArgType{Name: "MAP", Sample: "m"}
	argCollection = ArgType{Name: "ARRAY/MAP/MULTISET", Sample: "arr"}
	argElement    = ArgType{Name: "the element type", Sample: "i"}
	// argStringArray is ARRAY_JOIN's ARRAY<STRING>.
	argStringArray = ArgType{Name: "ARRAY<STRING>", Sample: "SPLIT(s, s)"}
)

func isMultiset(dt arrow.DataType) bool {
	return dt.ID() == arrow.MAP && strings.HasPrefix(format.SQLTypeName(dt), "MULTISET")
}

// collectionArg checks that argument i is one of the named kinds of
// collection; NULL is refused, as Flink cannot type it either.
func collectionArg(k *Call, i int, kinds string, ok bool) error {
	if ok {
		return nil
	}
	return sql.Errorf(sql.ErrInvalid, k.Pos[i], "%s expects %s, got %s", k.Name, kinds, TypeName(k.Args[i].DataType()))
}

func compileCardinality(c Compiler, k *Call) (expr.Expr, error) {
	dt := k.Args[0].DataType()
	if err := collectionArg(k, 0, "an ARRAY, MAP or MULTISET", dt.ID() == arrow.LIST || dt.ID() == arrow.MAP); err != nil {
		return nil, err
	}
	return c.Fold(k.F.At, &nestedfn.Cardinality{X: k.Args[0], Multiset: isMultiset(dt)}, k.Args...)
}

func compileElement(c Compiler, k *Call) (expr.Expr, error) {
	if err := collectionArg(k, 0, "an ARRAY", k.Args[0].DataType().ID() == arrow.LIST); err != nil {
		return nil, err
	}
	return c.Fold(k.F.At, &nestedfn.Sole{X: k.Args[0]}, k.Args...)
}

func compileEntries(values bool) func(c Compiler, k *Call) (expr.Expr, error) {
	return func(c Compiler, k *Call) (expr.Expr, error) {
		dt := k.Args[0].DataType()
		if err := collectionArg(k, 0, "a MAP", dt.ID() == arrow.MAP && !isMultiset(dt)); err != nil {
			return nil, err
		}
		return c.Fold(k.F.At, &nestedfn.Entries{X: k.Args[0], Values: values}, k.Args...)
	}
}

// compileNeedle compiles a search of an array (ARRAY_CONTAINS,
// ARRAY_POSITION): the needle is cast to the array's element type, as
// Flink does implicitly.
func compileNeedle(build func(x, needle expr.Expr) expr.Expr) func(c Compiler, k *Call) (expr.Expr, error) {
	return func(c Compiler, k *Call) (expr.Expr, error) { return searchArray(c, k, build) }
}

func compileReverse(c Compiler, k *Call) (expr.Expr, error) {
	if err := collectionArg(k, 0, "an ARRAY", k.Args[0].DataType().ID() == arrow.LIST); err != nil {
		return nil, err
	}
	return c.Fold(k.F.At, &nestedfn.Reverse{X: k.Args[0]}, k.Args...)
}

func searchArray(c Compiler, k *Call, build func(x, needle expr.Expr) expr.Expr) (expr.Expr, error) {
	lt, ok := k.Args[0].DataType().(*arrow.ListType)
	if err := collectionArg(k, 0, "an ARRAY", ok); err != nil {
		return nil, err
	}
	elem, needle := lt.Elem(), k.Args[1]
	if !nestedfn.CanCompare(elem) {
		return nil, sql.Errorf(sql.ErrUnsupported, k.Pos[0], "%s over an ARRAY<%s> is not supported yet", k.Name, TypeName(elem))
	}
	if from := needle.DataType(); isNestedType(elem) || isNestedType(from) {
		// nested values compare by their encoding: no cast, but a like shape
		if !IsNull(from) && !nestedfn.Comparable(from, elem) {
			return nil, sql.Errorf(sql.ErrInvalid, k.Pos[1], "%s looks for a %s in an ARRAY<%s>", k.Name, TypeName(from), TypeName(elem))
		}
	} else if !IsNull(from) && !arrow.TypeEqual(from, elem) {
		if (from.ID() == arrow.STRING) != (elem.ID() == arrow.STRING) || (from.ID() == arrow.BOOL) != (elem.ID() == arrow.BOOL) {
			return nil, sql.Errorf(sql.ErrInvalid, k.Pos[1], "%s looks for a %s in an ARRAY<%s>", k.Name, TypeName(from), TypeName(elem))
		}
		var err error
		if needle, err = c.To(needle, elem, k.Pos[1]); err != nil {
			return nil, err
		}
	}
	return c.Fold(k.F.At, build(k.Args[0], needle), k.Args[0], needle)
}
