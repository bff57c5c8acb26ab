package sql_test

import (
	"errors"
	"fmt"

	"github.com/wsql/wsql/sql"
)

func ExampleFormat() {
	stmts, err := sql.Parse(`select usr, count(*) as n
from table(tumble(table clicks, descriptor(ts), interval '1:30' minute to second))
group by usr, window_start, window_end`)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(sql.Format(stmts[0]))
	// Output:
	// SELECT usr, COUNT(*) AS n FROM TABLE(TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '90' SECOND)) GROUP BY usr, window_start, window_end
}

func ExampleParse_error() {
	src := "SELECT * FROM TABLE(TUMBLE(TABLE clicks, INTERVAL '1' MINUTE))"
	_, err := sql.Parse(src)
	var list sql.ErrorList
	if !errors.As(err, &list) {
		return
	}
	fmt.Println(list[0])
	fmt.Println(sql.Caret(src, list[0].Pos))
	// Output:
	// 1:42: expected DESCRIPTOR(column) naming the time attribute as the second argument of TUMBLE, as in TUMBLE(TABLE t, DESCRIPTOR(ts), size [, offset])
	// SELECT * FROM TABLE(TUMBLE(TABLE clicks, INTERVAL '1' MINUTE))
	//                                          ^
}
