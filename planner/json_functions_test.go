package planner

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestJSONFunctionErrors pins where the JSON functions refuse a call: at
// compile time for what the query says, per row only for what the data
// holds (a constant call is folded, so its row error is the query's).
func TestJSONFunctionErrors(t *testing.T) {
	window := " GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)"
	cases := map[string]string{
		"SELECT JSON_VALUE(s, '$.a' RETURNING DECIMAL(10, 2)) FROM t":                     "JSON_VALUE cannot return DECIMAL(10, 2); RETURNING takes STRING, BOOLEAN, INT, BIGINT or DOUBLE",
		"SELECT JSON_VALUE(s, '$.a[?(@.b)]') FROM t":                                      "JSON_VALUE: JSON path \"$.a[?(@.b)]\": filters [?(...)] are not supported yet",
		"SELECT JSON_QUERY(s, '$.a[1:2]') FROM t":                                         "array slices and several indexes in one [] are not supported yet",
		"SELECT JSON_EXISTS(s, '$.a.length()') FROM t":                                    "path functions such as length() are not supported yet",
		"SELECT JSON_OBJECT(KEY NULL VALUE 1) FROM t":                                     "a key of JSON_OBJECT cannot be NULL",
		"SELECT JSON_OBJECT(KEY i VALUE 1) FROM t":                                        "a key of JSON_OBJECT must be a STRING, got INT",
		"SELECT i IS JSON FROM t":                                                         "IS JSON expects a STRING, got INT",
		"SELECT JSON_VALUE(ts, '$') FROM t":                                               "JSON_VALUE expects a JSON STRING, got TIMESTAMP(3)",
		"SELECT JSON_VALUE('{\"a\":1}', 'strict $.b' ERROR ON ERROR) FROM t":              "JSON_VALUE: no value at path 'strict $.b'",
		"SELECT JSON_ARRAYAGG(DISTINCT s) FROM t" + window:                                "syntax error",
		"SELECT JSON_VALUE(s, '$.a' RETURNING INT DEFAULT 'x' ON EMPTY) FROM t":           "CAST('x' AS INT): cannot read",
		"SELECT JSON_VALUE(s, s DEFAULT flag ON ERROR), JSON_QUERY(s, s) FROM t":          "",
		"SELECT JSON_OBJECTAGG(KEY s VALUE JSON_OBJECT(KEY 'd' VALUE d)) FROM t" + window: "",
	}
	for q, msg := range cases {
		_, err := planFunctionQuery(t, q)
		if msg == "" {
			require.NoError(t, err, q)
			continue
		}
		require.ErrorContains(t, err, msg, q)
	}
}

// TestJSONResultTypes: JSON_VALUE's type is its RETURNING type (STRING by
// default), as in Flink.
func TestJSONResultTypes(t *testing.T) {
	for q, want := range map[string]string{
		"SELECT JSON_VALUE(s, '$.a') FROM t":                      "STRING",
		"SELECT JSON_VALUE(s, '$.a' RETURNING INT) FROM t":        "INT",
		"SELECT JSON_VALUE(s, '$.a' RETURNING BIGINT) FROM t":     "BIGINT",
		"SELECT JSON_VALUE(s, '$.a' RETURNING DOUBLE) FROM t":     "DOUBLE",
		"SELECT JSON_VALUE(s, '$.a' RETURNING BOOLEAN) FROM t":    "BOOLEAN",
		"SELECT JSON_VALUE(s, '$.a' RETURNING VARCHAR(3)) FROM t": "STRING",
		"SELECT JSON_EXISTS(s, '$.a') FROM t":                     "BOOLEAN",
		"SELECT s IS JSON FROM t":                                 "BOOLEAN",
	} {
		got, err := planFunctionQuery(t, q)
		require.NoError(t, err, q)
		require.Equal(t, want, got, q)
	}
}
