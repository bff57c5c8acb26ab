// Package planner turns a parsed SELECT and the catalog into an executable
// exec.Job: it resolves names, checks that the query is a windowed
// aggregation wsql can run, lowers the group window into a windowop.Config
// and the select list into a projection over the window operator's output,
// and translates a table's WITH options into a source. Its expressions
// are compiled by planner/exprplan.
//
// Every error points at the user's text (a sql.Error with a position) and
// says what was expected; unknown names suggest the closest known one.
// Plans are immutable: running one never changes it.
package planner
