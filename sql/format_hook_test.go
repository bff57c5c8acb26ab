package sql_test

import (
	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/sql/sqlfmt"
)

func init() { sql.SetFormatters(sqlfmt.Statement, sqlfmt.Expr) }
