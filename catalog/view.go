package catalog

import "github.com/wsql/wsql/sql"

// View is a named query: CREATE VIEW name AS SELECT ... . Its query is
// planned where the view is used, as if written in place.
type View struct {
	Name    string
	Columns []string // optional names for the query's columns
	Query   *sql.Select
	Text    string // the query as the user wrote it
	At      sql.Pos
	// Temporary is set for CREATE TEMPORARY VIEW, which SHOW CREATE VIEW
	// prints back as Flink does.
	Temporary bool
	// Scope is the catalog a common table expression of WITH reads: the
	// tables and the expressions before it. nil for a catalog view, which
	// reads the session's catalog.
	Scope *Catalog
}
