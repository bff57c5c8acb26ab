package wsql

import (
	"errors"
	"strings"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
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
		legacy, err := connector.FromLegacyOptions(s.Options)
		if err != nil {
			return err
		}
		withOptions := *s
		withOptions.Options = legacy
		s = &withOptions
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

// createTableAs runs the CREATE TABLE part of CREATE TABLE ... AS SELECT,
// as Flink does: the table's columns are the query's result columns, with
// their names and types, and the INSERT INTO it returned fills it. The
// table is dropped again when that INSERT cannot be planned.
func (r *runner) createTableAs(s *sql.CreateTable, opts planner.Options) (*sql.Insert, error) {
	cat := r.e.cat
	if cat.Table(s.Name.Name) != nil || cat.View(s.Name.Name) != nil {
		return nil, sql.Errorf(sql.ErrInvalid, s.Name.At, "table %s already exists; CREATE TABLE ... AS SELECT makes a new table", s.Name.Name)
	}
	p, err := planner.PlanSelect(s.Query, cat, opts)
	if err != nil {
		return nil, err
	}
	// The columns are read from their Flink text, as if declared.
	var cols []string
	for _, f := range p.Schema().Fields() {
		if f.Name == "" || strings.HasPrefix(f.Name, "$") {
			return nil, sql.Errorf(sql.ErrUnsupported, s.Query.At, "CREATE TABLE ... AS SELECT of a query whose result has changes (early or late firing) is not supported yet")
		}
		c := sql.QuoteName(f.Name) + " " + planner.SQLTypeName(f.Type)
		if !f.Nullable {
			c += " NOT NULL"
		}
		cols = append(cols, c)
	}
	decl, err := sql.Parse("CREATE TABLE t (" + strings.Join(cols, ", ") + ")")
	if err != nil {
		return nil, sql.Errorf(sql.ErrUnsupported, s.Query.At, "the query's result cannot be a table's columns: %v", err)
	}
	def := *s
	def.Query, def.Columns = nil, decl[0].(*sql.CreateTable).Columns
	for i := range def.Columns {
		def.Columns[i].Name.At, def.Columns[i].Type.At = s.Name.At, s.Name.At
	}
	if err := r.createTable(&def, opts); err != nil {
		return nil, err
	}
	ins := &sql.Insert{At: s.At, Table: s.Name, Query: s.Query}
	if _, err := planner.PlanInsert(ins, cat, opts); err != nil {
		_ = cat.Drop(&sql.Drop{At: s.At, Name: s.Name})
		return nil, err
	}
	return ins, nil
}
