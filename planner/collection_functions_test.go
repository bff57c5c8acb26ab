package planner

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCollectionResultTypes pins the types of the value constructors and
// collection functions: an ARRAY's elements meet in their least
// restrictive common type (INT and BIGINT in BIGINT, INT and DECIMAL in
// DECIMAL), as Flink's; a ROW's fields are named EXPR$0, ... as Flink's.
func TestCollectionResultTypes(t *testing.T) {
	cases := map[string]string{
		"ARRAY[i, b]":                         "ARRAY<BIGINT>",
		"ARRAY[1, 2.5]":                       "ARRAY<DECIMAL(11, 1)>",
		"ARRAY[s, NULL]":                      "ARRAY<STRING>",
		"ARRAY[arr, NULL]":                    "ARRAY<ARRAY<INT>>",
		"MAP[s, i, 'k', b]":                   "MAP<STRING, BIGINT>",
		"ROW(i, s)":                           "ROW<`EXPR$0` INT, `EXPR$1` STRING>",
		"(i, s, flag)":                        "ROW<`EXPR$0` INT, `EXPR$1` STRING, `EXPR$2` BOOLEAN>",
		"ARRAY_APPEND(arr, b)":                "ARRAY<INT>",
		"ARRAY_CONCAT(arr, ARRAY[1], arr)":    "ARRAY<INT>",
		"ARRAY_SLICE(arr, 1, 2)":              "ARRAY<INT>",
		"ARRAY_SORT(arr, TRUE, FALSE)":        "ARRAY<INT>",
		"ARRAY_UNION(arr, NULL)":              "ARRAY<INT>",
		"ARRAY_MAX(arr)":                      "INT",
		"ARRAY_JOIN(SPLIT(s, ','), '-')":      "STRING",
		"SPLIT(s, ',')":                       "ARRAY<STRING>",
		"MAP_ENTRIES(m)":                      "ARRAY<ROW<`key` STRING NOT NULL, `value` INT>>",
		"MAP_UNION(m, MAP['a', 1])":           "MAP<STRING, INT>",
		"MAP_FROM_ARRAYS(arr, SPLIT(s, ','))": "MAP<INT, STRING>",
	}
	for e, want := range cases {
		got, err := planFunctionQuery(t, "SELECT "+e+" FROM t")
		require.NoError(t, err, e)
		require.Equal(t, want, got, e)
	}
}

// TestCollectionErrors: what has no type or no kernel is refused at the
// call, with the reason.
func TestCollectionErrors(t *testing.T) {
	cases := map[string]string{
		"ARRAY[1, 'a']":                  "ARRAY[...] results have no common type: INT and STRING",
		"ARRAY[NULL]":                    "ARRAY[...] needs a result that is not NULL to have a type",
		"ARRAY[arr, m]":                  "ARRAY[...] mixes values of type ARRAY<INT> and MAP<STRING, INT>",
		"MAP['a', 1, 'b']":               "MAP[...] takes keys and values in pairs, got 3 values",
		"ROW(i, NULL)":                   "a field of ROW(...) cannot be an untyped NULL",
		"ARRAY_APPEND(arr, s)":           "ARRAY_APPEND expects an element of type INT, got STRING",
		"ARRAY_APPEND(s, 1)":             "ARRAY_APPEND expects an ARRAY, got STRING",
		"ARRAY_CONCAT(arr, SPLIT(s, s))": "ARRAY_CONCAT expects ARRAYs of one type, got ARRAY<INT> and ARRAY<STRING>",
		"ARRAY_CONCAT(NULL)":             "ARRAY_CONCAT needs an argument that is not NULL to have a type",
		"ARRAY_SLICE(arr, s)":            "ARRAY_SLICE expects an integer start_offset, got STRING",
		"ARRAY_SORT(arr, 1)":             "ARRAY_SORT expects a BOOLEAN, got INT",
		"ARRAY_SORT(ARRAY[arr])":         "ARRAY_SORT over an ARRAY<ARRAY<INT>> is not supported yet",
		"ARRAY_MAX(ARRAY[m])":            "ARRAY_MAX over an ARRAY<MAP<STRING, INT>> is not supported yet",
		"ARRAY_JOIN(arr, ',')":           "ARRAY_JOIN expects an ARRAY<STRING>, got ARRAY<INT>",
		"MAP_UNION(m, MAP[1, 1])":        "MAP_UNION expects MAPs of one type, got MAP<STRING, INT> and MAP<INT, INT>",
		"MAP_ENTRIES(arr)":               "MAP_ENTRIES expects a MAP, got ARRAY<INT>",
		"SPLIT(i, ',')":                  "SPLIT expects a STRING, got INT",
	}
	for e, msg := range cases {
		_, err := planFunctionQuery(t, "SELECT "+e+" FROM t")
		require.ErrorContains(t, err, msg, e)
	}
}
