package wsql

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzQuery builds a query from the fuzz bytes by a small grammar of large
// and deep shapes — long literals, big IN lists, deep nesting, extreme
// intervals and timestamps, DECIMAL casts, windows of odd sizes — over a
// six-row table, and runs it: the plan and the first result batch. Errors
// are expected; a panic (an error wrapping ErrInternal, or the parser's
// internal error) or a run that does not end fails.
//
//	go test -run XXX -fuzz FuzzQuery -fuzztime 5m .
//
// The seeds, one per query shape, are in testdata/fuzz/FuzzQuery.
func FuzzQuery(f *testing.F) {
	dir := f.TempDir()
	data := filepath.Join(dir, "t.csv")
	if err := os.WriteFile(data, []byte(fuzzTableRows), 0o644); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		g := &sqlGen{in: in}
		src := g.script(filepath.ToSlash(data))
		if err := runFuzzQuery(src); err != nil {
			t.Fatalf("%v\n-- the script:\n%s", err, src)
		}
	})
}

// fuzzTableRows are the rows of the fuzzed queries' table: NULLs, extreme
// integers, doubles and decimals, far-apart event times.
const fuzzTableRows = `2024-03-01 09:00:00.000,a,1,1.5,10.25
2024-03-01 09:00:07.123,,9223372036854775807,1e308,99999999.99
1970-01-01 00:00:00.000,é,-9223372036854775808,-0.0,-99999999.99
2024-03-01 09:01:00.000,a,,NaN,
9999-12-31 23:59:59.999,bb,0,,0.01
0001-01-01 00:00:00.000,"q""uote",-1,-1e-300,1.00
`

// fuzzTimeout is how long a fuzzed query may take before it counts as a
// hang: far more than any input of the grammar needs.
const fuzzTimeout = 20 * time.Second

// runFuzzQuery runs src: its CREATE TABLE through Exec, then the query
// through Query, reading one batch. It returns an error only for a panic
// or a hang.
func runFuzzQuery(src string) error {
	done := make(chan error, 1)
	ctx, cancel := context.WithTimeout(context.Background(), fuzzTimeout)
	defer cancel()
	go func() {
		done <- func() error {
			e := New()
			defer e.Close()
			ddl, query, _ := strings.Cut(src, ";\n")
			if err := e.Exec(ctx, ddl); err != nil {
				return internalError(err)
			}
			if strings.HasPrefix(query, "EXPLAIN ") {
				return internalError(e.Exec(ctx, query))
			}
			rows, err := e.Query(ctx, query)
			if err != nil {
				return internalError(err)
			}
			rows.Next()
			return internalError(rows.Close())
		}()
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(fuzzTimeout + 10*time.Second):
		return errors.New("hang: the query neither ended nor stopped when its context was cancelled")
	}
}

// internalError is err if it is a caught panic, nil otherwise.
func internalError(err error) error {
	if err == nil {
		return nil
	}
	if errors.Is(err, ErrInternal) || strings.Contains(err.Error(), "internal parser error") {
		return err
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return errors.New("hang: the query did not end within " + fuzzTimeout.String())
	}
	return nil
}

// sqlGen turns fuzz bytes into SQL: each choice takes the next byte, and
// choice 0 — all choices once the bytes run out — is always a leaf, so
// every input makes a finite query.
type sqlGen struct {
	in    []byte
	pos   int
	b     strings.Builder
	depth int
}

// maxGenDepth bounds ordinary recursion; the deep shapes are explicit.
const maxGenDepth = 5

func (g *sqlGen) pick(n int) int {
	if g.pos >= len(g.in) || n <= 1 {
		return 0
	}
	v := int(g.in[g.pos])
	g.pos++
	return v % n
}

func (g *sqlGen) w(parts ...string) {
	for _, p := range parts {
		g.b.WriteString(p)
	}
}

// capture returns what gen writes, instead of writing it.
func (g *sqlGen) capture(gen func()) string {
	saved := g.b
	g.b = strings.Builder{}
	gen()
	text := g.b.String()
	g.b = saved
	return text
}

// oneOf writes one of choices.
func (g *sqlGen) oneOf(choices ...string) { g.w(choices[g.pick(len(choices))]) }

// nested runs body one level deeper, or leaf when too deep.
func (g *sqlGen) nested(leaf, body func()) {
	if g.depth >= maxGenDepth {
		leaf()
		return
	}
	g.depth++
	body()
	g.depth--
}

// script is the table's DDL (its watermark delay fuzzed too), then the
// query, split by ";\n".
func (g *sqlGen) script(path string) string {
	g.w("CREATE TABLE t (ts TIMESTAMP(3), k STRING, v BIGINT, d DOUBLE, m DECIMAL(10, 2), WATERMARK FOR ts AS ts")
	if g.pick(2) == 1 {
		g.w(" - ")
		g.interval()
	}
	g.w(") WITH ('connector' = 'filesystem', 'path' = '", path, "', 'format' = 'csv'")
	if g.pick(2) == 1 {
		g.w(", 'csv.ignore-parse-errors' = 'true'")
	}
	g.w(");\n")
	if g.pick(4) == 3 {
		g.w("EXPLAIN ")
	}
	g.query()
	return g.b.String()
}

func (g *sqlGen) query() {
	switch g.pick(6) {
	case 0: // plain
		g.w("SELECT ")
		g.selectList()
		g.w(" FROM t")
		g.where()
	case 1: // group window
		win := g.pick(3)
		args := g.windowArgs(win)
		g.w("SELECT k, ", []string{"TUMBLE", "HOP", "SESSION"}[win], "_START(ts, ", args, "), ")
		g.aggList()
		g.w(" FROM t")
		g.where()
		g.w(" GROUP BY k, ", []string{"TUMBLE", "HOP", "SESSION"}[win], "(ts, ", args, ")")
		g.having()
	case 2: // window TVF
		g.w("SELECT window_start, window_end, k, ")
		g.aggList()
		g.w(" FROM TABLE(")
		g.windowTVF()
		g.w(")")
		g.where()
		g.w(" GROUP BY window_start, window_end, ")
		at := g.b.Len()
		g.w("k")
		g.having()
		g.groupingSets(at, "k")
	case 3: // group keys computed before the window
		key := g.capture(g.str)
		g.w("SELECT ", key, " AS gk, TUMBLE_END(ts, INTERVAL '1' MINUTE), ")
		g.aggList()
		g.w(" FROM t GROUP BY ", key, ", TUMBLE(ts, INTERVAL '1' MINUTE)")
	case 4: // a subquery in FROM
		g.w("SELECT k, COUNT(*), ")
		g.aggList()
		g.w(" FROM (SELECT ts, k, ")
		g.num()
		g.w(" AS v, ")
		g.num()
		g.w(" AS d, m FROM t")
		g.where()
		g.w(") GROUP BY k, TUMBLE(ts, ")
		g.interval()
		g.w(")")
	default:
		// pick(8) keeps the shapes pick(4) gave the seeds (0 and 4 are 0,
		// and so on); 6, Top-N under pick(4), is the OVER aggregation
		switch g.pick(8) {
		case 6: // OVER aggregation
			g.w("SELECT k, ts, v, ")
			frame := g.capture(func() {
				g.w("OVER (")
				if g.pick(2) == 1 {
					g.w("PARTITION BY ")
					g.oneOf("k", "v", "m")
				}
				g.w(" ORDER BY ")
				g.oneOf("ts", "ts", "ts", "v", "ts DESC")
				g.oneOf("", " ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW", " ROWS BETWEEN 0 PRECEDING AND CURRENT ROW",
					" ROWS BETWEEN 2 PRECEDING AND CURRENT ROW", " RANGE BETWEEN INTERVAL '1' SECOND PRECEDING AND CURRENT ROW",
					" RANGE BETWEEN INTERVAL '0' SECOND PRECEDING AND CURRENT ROW", " ROWS BETWEEN 9223372036854775807 PRECEDING AND CURRENT ROW")
				g.w(")")
			})
			n := 1 + g.pick(3)
			for i := range n {
				if i > 0 {
					g.w(", ")
				}
				g.agg()
				g.w(" ", frame)
			}
			g.w(" FROM t")
			g.where()
		case 0, 4: // a view of the table, then a plain read
			g.w("SELECT * FROM (SELECT ")
			g.selectList()
			g.w(" FROM t")
			g.where()
			if g.pick(2) == 1 { // a set operation of two reads of the table
				second := g.capture(func() {
					g.selectList()
					g.w(" FROM t")
					g.where()
				})
				// the operator last, so that older seeds stay UNION ALL
				g.w(" ", []string{"UNION ALL", "INTERSECT", "INTERSECT ALL", "EXCEPT", "EXCEPT ALL"}[g.pick(5)], " SELECT ", second)
			}
			g.w(")")
		case 1, 5: // GROUP BY without a window: an update stream
			key := g.capture(g.str)
			start := g.b.Len()
			g.w("SELECT ", key, " AS gk, ")
			g.aggList()
			g.w(" FROM t")
			g.where()
			g.w(" GROUP BY ")
			at := g.b.Len()
			g.w(key)
			g.having()
			g.groupingSets(at, key)
			if g.pick(2) == 1 { // over an update stream: every aggregate retracts
				q := g.b.String()
				g.b.Reset()
				g.b.WriteString(q[:start] + strings.Replace(q[start:], " FROM t", " FROM (SELECT k, MAX(ts) AS ts, SUM(v) AS v, MAX(d) AS d, MIN(m) AS m FROM t GROUP BY k)", 1))
			}
		case 3, 7:
			switch g.pick(3) {
			case 0: // a window TVF without aggregation: its rows, filtered
				g.w("SELECT ")
				g.selectList()
				g.w(", window_start, window_time FROM TABLE(")
				g.windowTVF()
				g.w(")")
				g.where()
			case 1: // the SESSION TVF, partitioned, aggregated
				g.w("SELECT window_start, window_end, k, ")
				g.aggList()
				g.w(" FROM TABLE(SESSION(TABLE t PARTITION BY k, DESCRIPTOR(ts), ")
				g.interval()
				g.w("))")
				g.where()
				g.w(" GROUP BY window_start, window_end, k")
				g.having()
			default: // window Top-N or window deduplication
				if g.pick(2) == 1 { // over the window table function's rows
					g.w("SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end")
					g.oneOf("", ", k")
					g.w(" ORDER BY ")
					g.oneOf("ts", "ts DESC", "v DESC", "window_time", "d")
					g.w(") AS rn FROM TABLE(")
					g.windowTVF()
					g.w(")")
					g.where()
					g.w(") WHERE rn ", g.capture(func() { g.oneOf("<= ", "= ", "< ", "BETWEEN 2 AND ") }))
					g.intLiteral()
					break
				}
				// over a window aggregation
				g.w("SELECT * FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end")
				g.oneOf("", ", k")
				g.w(" ORDER BY ")
				g.oneOf("n DESC", "a", "window_time", "window_time DESC", "k")
				g.w(") AS rn FROM (SELECT window_start, window_end, window_time, k, COUNT(*) AS n, ")
				g.agg()
				g.w(" AS a FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), ")
				g.interval()
				g.w("))")
				g.where()
				g.w(" GROUP BY window_start, window_end, window_time, k)) WHERE rn ", g.capture(func() { g.oneOf("<= ", "= ", "< ", "BETWEEN 2 AND ") }))
				g.intLiteral()
			}
		default: // Top-N or deduplication
			topN := g.capture(func() {
				g.w("SELECT * FROM (SELECT k, ts, v, ROW_NUMBER() OVER (PARTITION BY ")
				g.str()
				g.w(" ORDER BY ")
				g.oneOf("ts", "ts DESC", "v DESC", "d", "m")
				g.w(") AS rn FROM t")
				g.where()
				g.w(") WHERE rn ", g.capture(func() { g.oneOf("<= ", "= ", "< ", "BETWEEN 2 AND ") }))
				g.intLiteral()
			})
			// the rank function last, so that older seeds stay ROW_NUMBER
			g.w(strings.Replace(topN, "ROW_NUMBER", []string{"ROW_NUMBER", "RANK", "DENSE_RANK"}[g.pick(3)], 1))
		}
	}
}

// groupingSets turns the GROUP BY key written at offset at into ROLLUP,
// CUBE or GROUPING SETS by one more pick, the input's last, so the seeds
// written before it keep their queries.
func (g *sqlGen) groupingSets(at int, key string) {
	form := [][2]string{{}, {"ROLLUP (", ")"}, {"CUBE (", ")"}, {"GROUPING SETS ((", "), ())"}}[g.pick(4)]
	if form[0] == "" {
		return
	}
	s := g.b.String()
	g.b.Reset()
	g.b.WriteString(s[:at] + form[0] + key + form[1] + s[at+len(key):])
}

// windowTVF is a TUMBLE, HOP or CUMULATE call over t.
func (g *sqlGen) windowTVF() {
	switch g.pick(3) {
	case 0:
		g.w("TUMBLE(TABLE t, DESCRIPTOR(ts), ")
		g.interval()
		if g.pick(2) == 1 {
			g.w(", ")
			g.interval()
		}
	case 1:
		g.w("HOP(TABLE t, DESCRIPTOR(ts), ", g.slideAndSize(), "")
	default:
		g.w("CUMULATE(TABLE t, DESCRIPTOR(ts), ", g.slideAndSize(), "")
	}
	g.w(")")
}

func (g *sqlGen) selectList() {
	n := 1 + g.pick(4)
	for i := range n {
		if i > 0 {
			g.w(", ")
		}
		g.expr()
	}
}

func (g *sqlGen) where() {
	if g.pick(3) > 0 {
		g.w(" WHERE ")
		g.boolean()
	}
}

func (g *sqlGen) having() {
	if g.pick(3) == 2 {
		g.w(" HAVING ")
		g.agg()
		g.oneOf(" > ", " = ", " <> ", " < ")
		g.num()
	}
}

func (g *sqlGen) aggList() {
	n := 1 + g.pick(3)
	for i := range n {
		if i > 0 {
			g.w(", ")
		}
		g.agg()
	}
}

func (g *sqlGen) agg() {
	switch g.pick(9) {
	case 0:
		g.w("COUNT(*)")
	case 1:
		g.oneOf("SUM(", "AVG(", "MIN(", "MAX(", "STDDEV_POP(", "VAR_SAMP(", "FIRST_VALUE(", "LAST_VALUE(")
		g.num()
		g.w(")")
	case 2:
		g.oneOf("MIN(", "MAX(", "COUNT(", "COUNT(DISTINCT ", "FIRST_VALUE(")
		g.str()
		g.w(")")
	case 3:
		g.w("LISTAGG(")
		g.str()
		if g.pick(2) == 1 {
			g.w(", ")
			g.strLiteral()
		}
		g.w(")")
	case 4:
		g.w("SUM(CAST(")
		g.num()
		g.w(" AS ")
		g.decimalType()
		g.w("))")
	case 5:
		g.w("COUNT(DISTINCT ")
		g.num()
		g.w(")")
	case 6:
		g.w("MAX(")
		g.timestamp()
		g.w(")")
	case 7:
		g.w("SUM(")
		g.num()
		g.w(") FILTER (WHERE ")
		g.boolean()
		g.w(")")
	default:
		g.w("COUNT(")
		g.expr()
		g.w(")")
	}
}

func (g *sqlGen) expr() {
	switch g.pick(4) {
	case 0:
		g.num()
	case 1:
		g.str()
	case 2:
		g.boolean()
	default:
		g.timestamp()
	}
}

// num writes a numeric expression.
func (g *sqlGen) num() {
	leaf := func() { g.oneOf("v", "d", "m", "1", "0") }
	switch g.pick(13) {
	case 0:
		leaf()
	case 1:
		g.intLiteral()
	case 2:
		g.oneOf("1.5", "0.1", "1e308", "-1.7976931348623157E308", "4.9E-324", "-0.0", "1e-400", "1e400")
	case 3:
		// a DECIMAL literal: up to 60 digits around the point
		g.w(strings.Repeat("9", g.bigCount(60)), ".", strings.Repeat("9", g.bigCount(60)))
	case 4:
		g.nested(leaf, func() {
			g.w("(")
			g.num()
			g.oneOf(" + ", " - ", " * ", " / ", " % ")
			g.num()
			g.w(")")
		})
	case 5:
		g.nested(leaf, func() {
			g.oneOf("ABS(", "CEIL(", "FLOOR(", "SQRT(", "LN(", "EXP(", "LOG10(", "-(", "ROUND(")
			g.num()
			g.w(")")
		})
	case 6:
		g.nested(leaf, func() {
			g.oneOf("POWER(", "MOD(", "ROUND(")
			g.num()
			g.w(", ")
			g.num()
			g.w(")")
		})
	case 7:
		g.nested(leaf, func() {
			g.w("CAST(")
			if g.pick(3) == 2 {
				g.str()
			} else {
				g.num()
			}
			g.w(" AS ")
			g.numType()
			g.w(")")
		})
	case 8:
		g.nested(leaf, func() {
			switch g.pick(4) {
			case 0:
				g.w("CASE WHEN ")
				g.boolean()
				g.w(" THEN ")
				g.num()
				g.w(" ELSE ")
				g.num()
				g.w(" END")
			case 1:
				g.w("IF(")
				g.boolean()
				g.w(", ")
				g.num()
				g.w(", ")
				g.num()
				g.w(")")
			default:
				g.oneOf("COALESCE(", "NULLIF(", "IFNULL(")
				g.num()
				g.w(", ")
				g.num()
				g.w(")")
			}
		})
	case 9:
		// forms that read an operand twice (COALESCE, NULLIF, BETWEEN, a
		// simple CASE, IN over expressions) too: each level must evaluate
		// the level below once, or deep nesting never finishes
		g.deep(g.num, around("ABS("), around("("), around("-("), deepShape{"CAST(", " AS BIGINT)"},
			deepShape{"COALESCE(", ", v)"}, deepShape{"COALESCE(", ", NULL, d, 1)"}, deepShape{"IFNULL(", ", m)"},
			deepShape{"NULLIF(", ", 1)"}, deepShape{"IF(", " BETWEEN 0 AND v, v, d)"}, deepShape{"IF(", " NOT BETWEEN d AND 1, 1, 0)"},
			deepShape{"CASE ", " WHEN 1 THEN v WHEN v THEN 0 ELSE d END"}, deepShape{"IF(", " IN (v, d, 1), 1, 0)"})
	case 10:
		g.nested(leaf, func() {
			g.oneOf("CHAR_LENGTH(", "CHARACTER_LENGTH(")
			g.str()
			g.w(")")
		})
	case 11:
		g.nested(leaf, func() {
			g.oneOf("YEAR(", "MONTH(", "HOUR(", "MINUTE(", "SECOND(", "QUARTER(", "DAYOFMONTH(", "EXTRACT(DAY FROM ", "EXTRACT(MILLISECOND FROM ")
			g.timestamp()
			g.w(")")
		})
	default:
		g.nested(leaf, func() {
			g.w("UNIX_TIMESTAMP(")
			g.str()
			g.w(")")
		})
	}
}

// deep writes depth levels of one of shapes around a leaf of gen.
func (g *sqlGen) deep(gen func(), shapes ...deepShape) {
	shape := shapes[g.pick(len(shapes))]
	depth := g.bigCount(2000)
	for range depth {
		g.w(shape.open)
	}
	saved := g.depth
	g.depth = maxGenDepth // the inside is a leaf
	gen()
	g.depth = saved
	for range depth {
		g.w(shape.close)
	}
}

// deepShape is one level of a deep shape: what is written before and
// after the level below.
type deepShape struct{ open, close string }

// around is the shape of a one-argument call (or parentheses).
func around(open string) deepShape { return deepShape{open, ")"} }

// bigCount is a count for a large shape: small, a few hundred, or up to
// limit, taken from the next bytes.
func (g *sqlGen) bigCount(limit int) int {
	switch g.pick(4) {
	case 0:
		return 1
	case 1:
		return 1 + g.pick(10)
	case 2:
		return 1 + (g.pick(256)*256+g.pick(256))%min(limit, 500)
	default:
		return 1 + (g.pick(256)*256+g.pick(256))%limit
	}
}

func (g *sqlGen) intLiteral() {
	switch g.pick(3) {
	case 0:
		g.oneOf("0", "-1", "127", "128", "32768", "2147483647", "2147483648", "9223372036854775807", "-9223372036854775808", "9223372036854775808")
	case 1:
		g.w(strings.Repeat("9", g.bigCount(100)))
	default:
		g.w(strconv.Itoa(g.pick(256) - 128))
	}
}

func (g *sqlGen) numType() {
	switch g.pick(3) {
	case 0:
		g.oneOf("BIGINT", "TINYINT", "SMALLINT", "INT", "DOUBLE", "FLOAT")
	default:
		g.decimalType()
	}
}

func (g *sqlGen) decimalType() {
	p := []int{1, 2, 10, 18, 19, 20, 37, 38, 39, 0}[g.pick(10)]
	s := []int{0, 2, p, p - 1, p + 1}[g.pick(5)]
	g.w("DECIMAL(", strconv.Itoa(p), ", ", strconv.Itoa(s), ")")
}

// str writes a string expression.
func (g *sqlGen) str() {
	leaf := func() { g.oneOf("k", "'x'", "''") }
	switch g.pick(8) {
	case 0:
		leaf()
	case 1:
		g.strLiteral()
	case 2:
		g.nested(leaf, func() {
			g.oneOf("UPPER(", "LOWER(", "TRIM(", "LTRIM(", "RTRIM(")
			g.str()
			g.w(")")
		})
	case 3:
		g.nested(leaf, func() {
			g.w("CONCAT(")
			g.str()
			g.w(", ")
			g.str()
			g.w(")")
		})
	case 4:
		g.nested(leaf, func() {
			g.oneOf("SUBSTRING(", "SUBSTR(")
			g.str()
			g.w(", ")
			g.num()
			if g.pick(2) == 1 {
				g.w(", ")
				g.num()
			}
			g.w(")")
		})
	case 5:
		g.nested(leaf, func() {
			g.w("CAST(")
			if g.pick(2) == 1 {
				g.timestamp()
			} else {
				g.num()
			}
			g.w(" AS STRING)")
		})
	case 6:
		g.nested(leaf, func() {
			switch g.pick(3) {
			case 0:
				g.w("REPLACE(")
				g.str()
				g.w(", ")
				g.str()
				g.w(", ")
				g.str()
				g.w(")")
			case 1:
				g.w("DATE_FORMAT(")
				g.timestamp()
				g.w(", ")
				g.oneOf("'yyyy-MM-dd'", "'HH:mm:ss.SSS'", "''", "'''", "'yyyyyyyyyy'")
				g.w(")")
			default:
				g.w("COALESCE(")
				g.str()
				g.w(", ")
				g.str()
				g.w(")")
			}
		})
	default:
		g.deep(g.str, around("UPPER("), around("TRIM("), around("CONCAT('a', "),
			deepShape{"COALESCE(", ", k)"}, deepShape{"NULLIF(", ", 'a')"}, deepShape{"CASE ", " WHEN k THEN 'a' ELSE k END"})
	}
}

// strLiteral is a quoted literal, short or long (up to 100,000
// characters), with quotes and multi-byte characters.
func (g *sqlGen) strLiteral() {
	unit := []string{"a", "''", "é", "日本", "%", "_", " ", "\\"}[g.pick(8)]
	n := g.bigCount(100_000)
	g.w("'", strings.Repeat(unit, n/len(unit)+1), "'")
}

// boolean writes a boolean expression.
func (g *sqlGen) boolean() {
	leaf := func() { g.oneOf("v > 0", "k IS NULL", "TRUE", "FALSE", "d < m") }
	switch g.pick(9) {
	case 0:
		leaf()
	case 1:
		g.nested(leaf, func() {
			g.num()
			g.oneOf(" > ", " >= ", " = ", " <> ", " < ", " <= ")
			g.num()
		})
	case 2:
		g.nested(leaf, func() {
			g.str()
			g.oneOf(" = ", " <> ", " < ", " LIKE ", " NOT LIKE ")
			g.str()
		})
	case 3:
		g.nested(leaf, func() { g.inList() })
	case 4:
		g.nested(leaf, func() {
			g.oneOf("NOT (", "(")
			g.boolean()
			g.oneOf(") AND (", ") OR (")
			g.boolean()
			g.w(")")
		})
	case 5:
		g.nested(leaf, func() {
			g.expr()
			g.oneOf(" IS NULL", " IS NOT NULL")
		})
	case 6:
		g.nested(leaf, func() {
			g.num()
			g.oneOf(" BETWEEN ", " NOT BETWEEN ")
			g.num()
			g.w(" AND ")
			g.num()
		})
	case 7:
		g.nested(leaf, func() {
			g.timestamp()
			g.oneOf(" > ", " = ", " < ")
			g.timestamp()
		})
	default:
		g.deep(g.boolean, around("NOT ("), around("("), deepShape{"COALESCE(", ", v > 1)"},
			deepShape{"(", ") IN (v > 0, NULL)"}, deepShape{"(", ") BETWEEN FALSE AND (d > 0)"})
	}
}

// inList writes x IN (...) of up to 5,000 items, numbers or strings.
func (g *sqlGen) inList() {
	strs := g.pick(2) == 1
	if strs {
		g.str()
	} else {
		g.num()
	}
	g.oneOf(" IN (", " NOT IN (")
	n := g.bigCount(5000)
	for i := range n {
		if i > 0 {
			g.w(", ")
		}
		switch {
		case i < 3:
			saved := g.depth
			g.depth = maxGenDepth
			if strs {
				g.str()
			} else {
				g.num()
			}
			g.depth = saved
		case strs:
			g.w("'s", strconv.Itoa(i), "'")
		default:
			g.w(strconv.Itoa(i * 7919))
		}
	}
	g.w(")")
}

// timestamp writes a TIMESTAMP or TIMESTAMP_LTZ expression.
func (g *sqlGen) timestamp() {
	leaf := func() { g.oneOf("ts", "TIMESTAMP '2024-03-01 09:00:00'") }
	switch g.pick(7) {
	case 0:
		leaf()
	case 1:
		g.w("TIMESTAMP '")
		g.oneOf("1970-01-01 00:00:00", "9999-12-31 23:59:59.999", "0001-01-01 00:00:00.000", "2024-02-29 12:00:00",
			"0000-01-01 00:00:00", "10000-01-01 00:00:00", "2024-13-01 00:00:00", "292278994-08-17 07:12:55.807")
		g.w("'")
	case 2:
		g.nested(leaf, func() {
			g.timestamp()
			g.oneOf(" + ", " - ")
			g.interval()
		})
	case 3:
		g.nested(leaf, func() {
			g.w("TO_TIMESTAMP_LTZ(")
			if g.pick(2) == 1 {
				g.intLiteral()
			} else {
				g.num()
			}
			g.oneOf(", 0)", ", 3)")
		})
	case 4:
		g.nested(leaf, func() {
			cast := g.pick(2) == 1
			g.w(map[bool]string{true: "CAST(", false: "TO_TIMESTAMP("}[cast])
			g.str()
			g.w(map[bool]string{true: " AS TIMESTAMP(3))", false: ")"}[cast])
		})
	case 5:
		g.oneOf("CURRENT_TIMESTAMP", "LOCALTIMESTAMP", "NOW()")
	default:
		g.nested(leaf, func() {
			g.w("CASE WHEN ")
			g.boolean()
			g.w(" THEN ")
			g.timestamp()
			g.w(" ELSE ")
			g.timestamp()
			g.w(" END")
		})
	}
}

// fuzzIntervals are interval literals, ordinary and extreme, with their
// length in milliseconds (for the bound on windows per row).
var fuzzIntervals = []struct {
	sql string
	ms  float64
}{
	{"INTERVAL '1' SECOND", 1e3},
	{"INTERVAL '0.001' SECOND", 1},
	{"INTERVAL '1.5' SECOND", 1.5e3},
	{"INTERVAL '7' SECOND", 7e3},
	{"INTERVAL '1' MINUTE", 6e4},
	{"INTERVAL '1' HOUR", 3.6e6},
	{"INTERVAL '1' DAY", 8.64e7},
	{"INTERVAL '0' SECOND", 0},
	{"INTERVAL '-1' SECOND", -1e3},
	{"INTERVAL '9223372036854775' SECOND", 9.2e18},
	{"INTERVAL '9223372036854775807' SECOND", 9.2e21},
	{"INTERVAL '106751991167' DAY", 9.2e18},
	{"INTERVAL '1' MONTH", 2.6e9},
	{"INTERVAL '1' YEAR", 3.1e10},
	{"INTERVAL '1 02:03:04.005' DAY TO SECOND", 9.4e7},
	{"INTERVAL '1:30' MINUTE TO SECOND", 9e4},
	{"INTERVAL '1-6' YEAR TO MONTH", 4.7e10},
	{"INTERVAL '99999999' YEAR", 3.1e18},
	{"INTERVAL '1' SECOND * 9223372036854775", 9.2e18},
	{"INTERVAL '3' SECOND * 2", 6e3},
}

func (g *sqlGen) interval() {
	g.w(fuzzIntervals[g.pick(len(fuzzIntervals))].sql)
}

// maxWindowsPerRow keeps HOP and CUMULATE cheap: a row is in size/slide
// windows, and a huge ratio is a known cost (bounded at plan time
// separately), not a panic this target looks for.
const maxWindowsPerRow = 1000

// slideAndSize is "slide, size" for HOP or "step, size" for CUMULATE, with
// at most maxWindowsPerRow windows per row.
func (g *sqlGen) slideAndSize() string {
	slide := fuzzIntervals[g.pick(len(fuzzIntervals))]
	size := fuzzIntervals[g.pick(len(fuzzIntervals))]
	if slide.ms > 0 && size.ms/slide.ms > maxWindowsPerRow {
		size = slide
	}
	return slide.sql + ", " + size.sql
}

// windowArgs is the arguments of a group window after ts: TUMBLE's size,
// HOP's slide and size, SESSION's gap.
func (g *sqlGen) windowArgs(win int) string {
	switch win {
	case 1:
		return g.slideAndSize()
	default:
		return fuzzIntervals[g.pick(len(fuzzIntervals))].sql
	}
}
