package sql

// The printer lives in sql/sqlfmt, which imports sql, so the parser's
// tests (package sql) cannot import it: format_hook_test.go (package
// sql_test) hands it over here before the tests run.
var (
	formatStmt func(Statement) string
	formatExpr func(Expr) string
)

// SetFormatters gives the parser's tests the printer of sql/sqlfmt.
func SetFormatters(stmt func(Statement) string, expr func(Expr) string) {
	formatStmt, formatExpr = stmt, expr
}
