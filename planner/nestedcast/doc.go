// Package nestedcast plans CAST between nested types of one kind (ROW to
// ROW, ARRAY to ARRAY, MAP to MAP, MULTISET to MULTISET) as a cast per
// field, element, key and value, and finds the common type of two nested
// types element by element, as Flink's LogicalTypeMerging does, so
// COALESCE(ARRAY<INT>, ARRAY<BIGINT>) is an ARRAY<BIGINT>.
package nestedcast
