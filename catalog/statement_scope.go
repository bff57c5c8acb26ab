package catalog

import (
	"maps"
	"strings"
)

// WithView returns a copy of c in which v hides every table and view of
// its name: a common table expression of WITH, which exists for one
// statement only. c itself is unchanged.
func (c *Catalog) WithView(v *View) *Catalog {
	out := &Catalog{tables: maps.Clone(c.tables), views: maps.Clone(c.views), root: c.Root()}
	key := strings.ToLower(v.Name)
	delete(out.tables, key)
	out.views[key] = v
	return out
}

// Root is the session's catalog that c was copied from by WithView, or c:
// a view created by CREATE VIEW reads the session's names, never a
// statement's WITH names.
func (c *Catalog) Root() *Catalog {
	if c.root != nil {
		return c.root
	}
	return c
}
