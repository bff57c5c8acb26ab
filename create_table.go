package wsql

import (
	"errors"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/planner"
	"github.com/wsql/wsql/sql"
)

// createTable runs CREATE TABLE: a new table's WITH options are checked
// now (planner.CheckTable), so a mistake is the CREATE's error, and the
// table keeps the text it was declared in, for errors a later query finds
// in it (a file missing when the query runs).
func (r *runner) createTable(s *sql.CreateTable, opts planner.Options) error {
	cat := r.e.cat
	isNew := cat.Table(s.Name.Name) == nil && cat.View(s.Name.Name) == nil
	if s.Like != nil && isNew {
		merged, err := cat.MergeLike(s)
		if err != nil {
			return err
		}
		s = merged
	}
	if isNew {
		t, err := catalog.NewTable(s)
		if err != nil {
			return err
		}
		if err := planner.CheckTable(t, opts); err != nil {
			return err
		}
	}
	t, err := cat.CreateTable(s)
	if err != nil {
		return err
	}
	if isNew { // not one IF NOT EXISTS kept
		t.Src = r.src
	}
	return nil
}

// ownPositions drops the earlier statement of an error (sql.Decl) when
// that statement is in this run's own text: its position is then one the
// caller's text shows, as every other.
func (r *runner) ownPositions(err error) error {
	var e *sql.Error
	if errors.As(err, &e) && e.Decl != nil && e.Decl.Src == r.src {
		e.Decl = nil
	}
	return err
}
