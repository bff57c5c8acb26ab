// Package jsonfn is the kernels of Flink's JSON functions: JSON_VALUE,
// JSON_QUERY, JSON_EXISTS, IS JSON, JSON_STRING, JSON_OBJECT and
// JSON_ARRAY, column at a time.
//
// Flink evaluates JSON paths with Jayway JsonPath over a Jackson tree
// (SqlJsonUtils, after Calcite's JsonFunctions); this package follows
// those semantics without building a tree: a document is validated in one
// pass (valid.go) and the compiled path (path.go) walks its text
// (walk.go), so reading a short document allocates nothing. Values leave
// as Jackson writes them (write.go): objects with their keys sorted,
// numbers as Java's BigDecimal and Double print them.
//
// A path is compiled once per query when it is a constant; the function
// registry (package function, json.go) builds the kernels.
package jsonfn
