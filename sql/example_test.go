package sql_test

import (
	"errors"
	"fmt"

	"github.com/wsql/wsql/sql"
)

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
