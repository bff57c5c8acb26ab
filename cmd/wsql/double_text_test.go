package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// DOUBLE and FLOAT print as Flink writes them (Java's Double.toString and
// Float.toString) in every output format: 1.0, not 1; 1.0E20, not
// 100000000000000000000. JSON writes them as numbers, as Flink's json
// format (Jackson) does, and NaN and the infinities as strings.
func TestDoublesPrintAsFlinkInEveryFormat(t *testing.T) {
	t.Chdir("../..")
	query := `CREATE TABLE doubles (ts TIMESTAMP(3), k STRING, x DOUBLE, f FLOAT, n INT)
		WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/doubles.csv', 'format' = 'csv');
		SELECT k, x, f FROM doubles WHERE n = 1 OR k = 'd'`
	for format, want := range map[string]string{
		"csv": "k,x,f\n" +
			"a,1.0,1.0\n" +
			"b,1.0E7,1.0E10\n" +
			"c,1.0E20,3.4028235E38\n" +
			"c,1.7976931348623157E308,1.4E-45\n" +
			"c,4.9E-324,-2.5E-4\n" +
			"d,NaN,NaN\n" +
			"d,Infinity,Infinity\n" +
			"d,-Infinity,-Infinity\n",
		"table": "" +
			"+------+------------------------+--------------+\n" +
			"| k    |                      x |            f |\n" +
			"+------+------------------------+--------------+\n" +
			"| a    |                    1.0 |          1.0 |\n" +
			"| b    |                  1.0E7 |       1.0E10 |\n" +
			"| c    |                 1.0E20 | 3.4028235E38 |\n" +
			"| c    | 1.7976931348623157E308 |      1.4E-45 |\n" +
			"| c    |               4.9E-324 |      -2.5E-4 |\n" +
			"| d    |                    NaN |          NaN |\n" +
			"| d    |               Infinity |     Infinity |\n" +
			"| d    |              -Infinity |    -Infinity |\n" +
			"+------+------------------------+--------------+\n" +
			"8 rows\n",
		"json": `{"k":"a","x":1.0,"f":1.0}` + "\n" +
			`{"k":"b","x":1.0E7,"f":1.0E10}` + "\n" +
			`{"k":"c","x":1.0E20,"f":3.4028235E38}` + "\n" +
			`{"k":"c","x":1.7976931348623157E308,"f":1.4E-45}` + "\n" +
			`{"k":"c","x":4.9E-324,"f":-2.5E-4}` + "\n" +
			`{"k":"d","x":"NaN","f":"NaN"}` + "\n" +
			`{"k":"d","x":"Infinity","f":"Infinity"}` + "\n" +
			`{"k":"d","x":"-Infinity","f":"-Infinity"}` + "\n",
	} {
		code, stdout, stderr := runCLI(t, "", "--format", format, "-e", query)
		require.Equal(t, 0, code, stderr)
		require.Equal(t, want, stdout, format)
	}
}
