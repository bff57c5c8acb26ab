// Package function is the function registry: one Function per name (its
// aliases, kind, signatures with argument and result types, description)
// and how a call of it compiles. The built-ins are one Registry
// (Builtins), filled by one file per family (string.go, math.go, ...).
//
// A scalar's Compile builds an exec/expr expression from a Call whose
// arguments the planner compiled and the signature's argument types
// checked; it reaches the planner's expression compiler only through the
// Compiler interface (constant folding, casts, argument checks, the
// session time zone and the query's start time). Its kernel lives in
// exec/expr or next to the entry, over the helpers exec/expr exports
// (NewValues, ValuesOf, AndValidity, NewArray, StringArg). An aggregate
// names the window operator's kind (windowop.AggKind) and its ArgClass.
//
// SHOW FUNCTIONS, shell completion, "unknown function" suggestions and
// the SQL reference's function table all read the registry.
package function
