package wsql_test

import (
	"context"
	"log"
	"os"
	"strings"
	"time"

	"github.com/wsql/wsql"
)

// Functions written in Go, called from SQL: a scalar function and an
// aggregate, each from plain Go functions of a row, then a second name for
// the scalar with CREATE FUNCTION.
func ExampleEngine_RegisterFunction() {
	ctx := context.Background()
	e := wsql.New()
	defer e.Close()

	// a scalar function: STRING → STRING, a row at a time
	err := e.RegisterFunction("initials", wsql.ScalarFunc1(func(name string) string {
		return strings.ToUpper(name[:1])
	}))
	if err != nil {
		log.Fatal(err)
	}
	// an aggregate: the largest amount minus the smallest, over an
	// accumulator value (exported fields, so checkpoints can save it)
	type spread struct{ Min, Max float64 }
	err = e.RegisterFunction("spread", wsql.AggregateFunc(
		func() spread { return spread{Min: 1e308, Max: -1e308} },
		func(acc *spread, v float64) { acc.Min, acc.Max = min(acc.Min, v), max(acc.Max, v) },
		func(acc *spread, other spread) { acc.Min, acc.Max = min(acc.Min, other.Min), max(acc.Max, other.Max) },
		func(acc spread) float64 { return acc.Max - acc.Min }))
	if err != nil {
		log.Fatal(err)
	}

	src := `CREATE TABLE clicks (ts TIMESTAMP(3), usr STRING, amount DOUBLE,
	  WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
	WITH ('connector' = 'filesystem', 'path' = 'testdata/examples/clicks.csv', 'format' = 'csv');
	CREATE FUNCTION first_letter AS 'initials';
	SHOW USER FUNCTIONS;
	SELECT INITIALS(usr) AS who, FIRST_LETTER(usr) AS same, ROUND(SPREAD(amount), 2) AS spread
	FROM clicks WHERE ts < TIMESTAMP '2024-03-01 09:01:00'
	GROUP BY usr, TUMBLE(ts, INTERVAL '1' MINUTE)`
	err = e.Run(ctx, src, wsql.Output{NewWriter: func(r wsql.ResultInfo) (wsql.ResultWriter, error) {
		return wsql.NewCSVWriter(os.Stdout, r.Schema, time.UTC), nil
	}})
	if err != nil {
		log.Fatal(wsql.FormatError(src, err))
	}
	// Output:
	// function name
	// FIRST_LETTER
	// INITIALS
	// SPREAD
	// who,same,spread
	// C,C,18.36
	// A,A,22.92
	// B,B,35.9
}
