package sqlfmt_test

import (
	"fmt"

	"github.com/wsql/wsql/sql"
	"github.com/wsql/wsql/sql/sqlfmt"
)

func ExampleStatement() {
	stmts, err := sql.Parse(`select usr, count(*) as n
from table(tumble(table clicks, descriptor(ts), interval '1:30' minute to second))
group by usr, window_start, window_end`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sqlfmt.Statement(stmts[0]))
	// Output:
	// SELECT usr, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '90' SECOND)) GROUP BY usr, window_start, window_end
}
