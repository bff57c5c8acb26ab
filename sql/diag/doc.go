// Package diag words what a diagnostic shows besides its message: the
// caret under the position of an error or warning, and the "did you mean"
// suggestion for a misspelled keyword or name. It knows nothing of SQL,
// so every layer that reports errors (the parser, the catalog, the
// planner, the connectors, the shell) words them the same way.
package diag
