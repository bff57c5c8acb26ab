// Package nestedfn holds the kernels of Flink's value access and
// collection functions over Arrow's nested arrays: a ROW's field (a struct
// child, shared without copying), an ARRAY's element and a MAP's value
// (one take of the elements per batch), CARDINALITY, and the choice of
// CASE and COALESCE between nested values (Choose).
//
// Each kernel works a column at a time and allocates per batch, never per
// row.
package nestedfn
