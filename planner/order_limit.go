package planner

import "github.com/wsql/wsql/sql"

// checkOrderLimit refuses ORDER BY and LIMIT, which are planned elsewhere.
func checkOrderLimit(stmt *sql.Select) error {
	if len(stmt.OrderBy) > 0 {
		return sql.Errorf(sql.ErrUnsupported, stmt.OrderBy[0].At, "ORDER BY is not supported yet")
	}
	if stmt.Limit != nil {
		return sql.Errorf(sql.ErrUnsupported, stmt.Limit.At, "LIMIT is not supported yet")
	}
	return nil
}
