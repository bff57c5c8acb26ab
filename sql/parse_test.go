package sql

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/sql/interval"
)

func TestParseExprWatermark(t *testing.T) {
	e, err := ParseExpr("ts - INTERVAL '5' SECOND")
	require.NoError(t, err)
	b, ok := e.(*Binary)
	require.True(t, ok)
	require.Equal(t, "-", b.Op)
	require.Equal(t, &ColumnRef{At: Pos{0, 1, 1}, Name: "ts"}, b.L)
	require.Equal(t, &IntervalLiteral{At: Pos{5, 1, 6}, Millis: 5000, Text: "INTERVAL '5' SECOND"}, b.R)
}

func TestParseExprErrors(t *testing.T) {
	for _, tc := range []struct{ src, msg string }{
		{"a +", "1:4: syntax error at end of input"},
		{"a b", "1:3: unexpected b after the expression"},
		{"a, b", "1:2: expected one expression, found a list"},
		{"a FROM t", "1:3: unexpected text after the expression"},
		{"a; b", "1:2: unexpected ; in an expression"},
		{"", "1:1: expected an expression"},
	} {
		_, err := ParseExpr(tc.src)
		require.Error(t, err, tc.src)
		require.Equal(t, tc.msg, err.Error(), tc.src)
	}
}

func TestIntervalMillis(t *testing.T) {
	for _, tc := range []struct {
		text     string
		from, to string
		ms       int64
		ok       bool
	}{
		{"5", "SECOND", "SECOND", 5000, true},
		{"1.5", "SECOND", "SECOND", 1500, true},
		{"0.0015", "SECOND", "SECOND", 1, true},
		{"-5", "MINUTE", "MINUTE", -300_000, true},
		{"+2", "HOUR", "HOUR", 7_200_000, true},
		{"1 02:03:04.5", "DAY", "SECOND", 93_784_500, true},
		{"1 02", "DAY", "HOUR", 93_600_000, true},
		{"2:30", "HOUR", "MINUTE", 9_000_000, true},
		{"1.5", "MINUTE", "MINUTE", 0, false},
		{"1:2", "MINUTE", "MINUTE", 0, false},
		{"x", "SECOND", "SECOND", 0, false},
		{"", "SECOND", "SECOND", 0, false},
		{"--5", "SECOND", "SECOND", 0, false},
		{"99999999999999999", "DAY", "DAY", 0, false},
	} {
		unit := func(s string) int {
			return intervalUnit(token{kind: tokIdent, text: s})
		}
		ms, ok := interval.Millis(tc.text, unit(tc.from), unit(tc.to))
		require.Equal(t, tc.ok, ok, tc.text)
		require.Equal(t, tc.ms, ms, tc.text)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		src  string
		kind error
		msg  string
	}{
		{"SELECT a FROM t WHERE", ErrSyntax, "1:22: syntax error at end of input"},
		{"SELECT a\nFROM t\nWHERE a = = 1", ErrSyntax, `3:11: syntax error near "= 1"`},
		{"SELECT k,\n  CONT(*) FROM t", ErrInvalid, "2:3: unknown function CONT; did you mean COUNT?"},
		{"SELECT SUM(*) FROM t", ErrSyntax, `1:12: syntax error near "*) FROM t"`},
		{"SELECT ts + INTERVAL '1-12' YEAR TO MONTH FROM t", ErrSyntax, "1:22: invalid interval value '1-12' for YEAR TO MONTH; expected 'y-m' such as '1-2'"},
		{"SELECT ts + INTERVAL '1' MONTH TO YEAR FROM t", ErrSyntax, "1:32: MONTH cannot start a range; write INTERVAL '5' MONTH"},
		{"SELECT ts + INTERVAL '1' YEAR TO DAY FROM t", ErrSyntax, "1:34: expected MONTH after YEAR TO, found DAY"},
		{"SELECT ts + INTERVAL '1.5' YEAR FROM t", ErrSyntax, "1:22: invalid interval value '1.5' for YEAR; expected a whole number such as '5'"},
		{"SELECT INTERVAL '1:2' SECOND", ErrSyntax, "1:17: invalid interval value '1:2' for SECOND; expected a number such as '1.5'"},
		{"SELECT INTERVAL '5'", ErrSyntax, "1:20: expected an interval unit (YEAR, MONTH, DAY, HOUR, MINUTE or SECOND) after '5'"},
		{"SELECT INTERVAL SECOND", ErrSyntax, "1:8: expected a quoted value after INTERVAL, as in INTERVAL '5' SECOND"},
		{"SELECT INTERVAL '1' SECOND(x)", ErrSyntax, "1:28: expected a precision such as (3) after the interval unit"},
		{"SELECT CAST(a AS FOO) FROM t", ErrSyntax, "1:18: unknown type FOO"},
		{"SELECT CAST(a) FROM t", ErrSyntax, "1:14: expected AS and a type in CAST, as in CAST(x AS BIGINT)"},
		{"SELECT CAST(a AS INT(3)) FROM t", ErrSyntax, "1:21: type INT takes no precision"},
		{"SELECT __wsql_interval(0)", ErrInvalid, "1:8: names starting with __wsql_ are reserved for wsql"},
		{"SELECT a FROM db.t", ErrUnsupported, "1:15: qualified table names are not supported yet"},
		{"SELECT a FROM (SELECT a FROM t UNION ALL SELECT a FROM u ORDER BY a) AS s", ErrUnsupported, "1:58: ORDER BY of a set operation is not supported yet"},
		{"SELECT a FROM t UNION ALL SELECT a FROM u LIMIT 1", ErrUnsupported, "1:43: LIMIT of a set operation is not supported yet"},
		{"SELECT a FROM ((SELECT a FROM t LIMIT 1 OFFSET 2)) AS s", ErrUnsupported, "1:41: OFFSET is not supported yet"},
		{"SELECT a FROM t LIMIT 2, 3", ErrUnsupported, "1:24: OFFSET is not supported yet"},
		{"WITH RECURSIVE r AS (SELECT 1) SELECT * FROM r", ErrUnsupported, "1:6: WITH RECURSIVE is not supported"},
		{"WITH a AS (SELECT 1), a AS (SELECT 2) SELECT * FROM a", ErrInvalid, "1:23: WITH names a twice"},
		{"WITH a AS (SELECT x FROM t ORDER BY x LIMIT 1 OFFSET 1) SELECT * FROM a", ErrUnsupported, "1:47: OFFSET is not supported yet"},
		{"SELECT a FROM LATERAL (SELECT 1) AS s", ErrUnsupported, "1:15: LATERAL is not supported"},
		{"SELECT a FROM t WHERE a ILIKE 'x%'", ErrUnsupported, "1:23: ILIKE is not supported yet; use LOWER(x) LIKE pattern"},
		{"SELECT a FROM t WHERE a LIKE 'x' ESCAPE 'ab'", ErrInvalid, "1:41: ESCAPE takes a single character, found 'ab'"},
		{"SELECT EXTRACT(HOURS FROM ts) FROM t", ErrSyntax, "1:16: unknown time unit HOURS in EXTRACT; did you mean HOUR?"},
		{"SELECT EXTRACT(DAY_HOUR FROM ts) FROM t", ErrSyntax, "1:16: unknown time unit DAY_HOUR in EXTRACT"},
		{"SELECT a FROM t WHERE ts OVERLAPS (a, b)", ErrSyntax, "1:26: OVERLAPS compares two periods, as in (start1, end1) OVERLAPS (start2, end2)"},
		{"SELECT a FROM t WHERE f(a, b) OVERLAPS (a, b)", ErrSyntax, "1:31: OVERLAPS compares two periods, as in (start1, end1) OVERLAPS (start2, end2)"},
		{"SELECT EXTRACT(HOUR ts) FROM t", ErrSyntax, "1:21: expected FROM after the unit of EXTRACT, as in EXTRACT(HOUR FROM ts)"},
		{"SELECT EXTRACT('x' FROM ts) FROM t", ErrSyntax, "1:16: expected a time unit in EXTRACT, as in EXTRACT(HOUR FROM ts)"},
		{"SELECT EXTRACT(YEAR FROM a, b) FROM t", ErrSyntax, "1:29: EXTRACT takes one expression after FROM"},
		{"SELECT CAST(a, b AS INT) FROM t", ErrSyntax, "1:8: CAST takes one expression before AS"},
		{"SELECT TIMESTAMPADD(HOURS, 1, ts) FROM t", ErrSyntax, "1:21: unknown time unit HOURS in TIMESTAMPADD; did you mean HOUR?"},
		{"SELECT a FROM t UNION ALL SELECT b FROM u INTERSECT ALL SELECT c FROM v", ErrUnsupported, "1:43: INTERSECT after UNION ALL needs parentheses: INTERSECT binds tighter than UNION and EXCEPT; write q1 UNION ALL (q2 INTERSECT q3)"},
		{"EXPLAIN CHANGELOG_MODE SELECT a FROM t", ErrUnsupported, "1:9: EXPLAIN CHANGELOG_MODE is not supported"},
		{"DROP FUNCTION cat.db.f", ErrUnsupported, "1:15: qualified function names are not supported: wsql has one catalog and one database"},
		{"CREATE FUNCTION f AS 'x' USING JAR 'a.jar'", ErrUnsupported, "1:26: USING is not supported: wsql's functions are Go functions the program registered (Engine.RegisterFunction)"},
		{"CREATE FUNCTION f AS x", ErrSyntax, "1:22: expected the quoted name the function was registered under, as in AS 'my_function', found x"},
		{"DROP FUNCTION IF NOT EXISTS f", ErrSyntax, "1:15: expected IF EXISTS, found IF"},
		{"SHOW USER TABLES", ErrSyntax, "1:11: expected FUNCTIONS, found TABLES"},
		{"SELECT a FROM t WHERE a = ?", ErrUnsupported, "1:27: parameters (?) are not supported"},
		{"SELECT a DIV 2 FROM t", ErrUnsupported, "1:8: operator DIV is not supported"},
		{"SELECT 0x1F", ErrSyntax, `1:9: unexpected 'x' right after the number 0; put a space between them`},
		{"SELECT 'a' 'b' FROM t", ErrUnsupported, "1:12: adjacent string literals are not supported; join them with ||"},
		{"CREATE TABLE t (a INT) WITH ('k' = 'a', 'k' = 'b')", ErrInvalid, "1:41: option 'k' is set twice"},
		{"CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts, WATERMARK FOR ts AS ts)", ErrInvalid, "1:58: a table can have only one WATERMARK"},
		{"CREATE TABLE t (a INT) PARTITIONED (a)", ErrSyntax, "1:36: expected BY after PARTITIONED, found ("},
		{"CREATE TABLE t (a INT) PARTITIONED BY a", ErrSyntax, `1:39: expected "(", found a`},
		{"CREATE TABLE t (a INT", ErrSyntax, `1:22: expected "," or ")" after the column definition at end of statement`},
		{"CREATE TABLE t (a TIMESTAMP WITH TIME ZONE)", ErrUnsupported, "1:29: TIMESTAMP WITH TIME ZONE is not supported; use TIMESTAMP_LTZ"},
		{"CREATE TABLE t (a INT) WITH ('k' = 'v') extra", ErrSyntax, "1:41: expected WITH (...), LIKE, AS or the end of the statement, found extra"},
		{"CREATE TABLE IF EXISTS t (a INT)", ErrSyntax, "1:14: expected IF NOT EXISTS, found IF"},
	} {
		_, err := Parse(tc.src)
		require.Error(t, err, tc.src)
		require.ErrorIs(t, err, tc.kind, tc.src)
		require.Equal(t, tc.msg, err.Error(), tc.src)
	}
}

// TestParseNumbersAsWritten checks that numbers TiDB cannot hold still
// come back as written, for the planner to judge.
func TestParseNumbersAsWritten(t *testing.T) {
	long := "0000000000000000000000000000000000000000000000000000000000000020000000000000000000"
	stmts, err := Parse("SELECT 1e400, " + long + ", 1.5e-400")
	require.NoError(t, err)
	items := stmts[0].(*Select).Items
	require.Equal(t, &Literal{At: Pos{7, 1, 8}, Kind: LitFloat, Text: "1e400"}, items[0].Expr)
	require.Equal(t, &Literal{At: Pos{14, 1, 15}, Kind: LitInt, Text: long}, items[1].Expr)
	require.Equal(t, LitFloat, items[2].Expr.(*Literal).Kind)
}

// TestParseNumberEndingInPoint: after "1." TiDB's lexer read the next
// word as a name, so "1. AS x" failed (found by FuzzParse).
func TestParseNumberEndingInPoint(t *testing.T) {
	stmts, err := Parse("SELECT 00000 % 00. AS a, 1. FROM t")
	require.NoError(t, err)
	items := stmts[0].(*Select).Items
	require.Equal(t, "a", items[0].Alias)
	require.Equal(t, &Literal{At: Pos{25, 1, 26}, Kind: LitDecimal, Text: "1."}, items[1].Expr)
	requireRoundTrip(t, stmts[0])
	_, err = Parse("SELECT 1. ASC")
	require.Error(t, err, "ASC is reserved")
}

func TestParseEmptyAndErrorList(t *testing.T) {
	stmts, err := Parse(" -- nothing\n ; ;")
	require.NoError(t, err)
	require.Empty(t, stmts)

	_, err = Parse("SELEC a;\nSELECT b FROM t;\nINSERT INTO t PARTITION (p = 1) VALUES (1)")
	var list ErrorList
	require.ErrorAs(t, err, &list)
	require.Len(t, list, 2)
	require.Equal(t, Pos{Offset: 0, Line: 1, Col: 1}, list[0].Pos)
	require.Equal(t, 3, list[1].Pos.Line)
	require.ErrorIs(t, err, ErrSyntax)
	require.ErrorIs(t, err, ErrUnsupported)
}

func TestCatchBug(t *testing.T) {
	f := func() (err error) {
		defer catchBug(&err)
		panic(bug("broken"))
	}
	err := f()
	require.ErrorContains(t, err, "internal parser error: broken")
}

// TestPositionsPointAtTheirText checks, over every golden input that
// parses, that each node's position is where its text starts in the file.
func TestPositionsPointAtTheirText(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("..", "testdata", "sql", "*.sql"))
	require.NoError(t, err)
	checked := 0
	for _, in := range inputs {
		b, err := os.ReadFile(in)
		require.NoError(t, err)
		src := string(b)
		stmts, err := Parse(src)
		if err != nil {
			continue
		}
		at := func(p Pos, want string) {
			t.Helper()
			require.True(t, p.IsValid(), "%s: no position for %q", in, want)
			require.Equal(t, newSource(src).pos(p.Offset), p, "%s: line/col", in)
			got := strings.TrimPrefix(src[p.Offset:], "`")
			require.True(t, len(got) >= len(want) && strings.EqualFold(got[:len(want)], want),
				"%s %s: want %q at %q", in, p, want, src[p.Offset:min(len(src), p.Offset+20)])
			checked++
		}
		var walk func(e Expr)
		var walkSelect func(s *Select)
		walk = func(e Expr) {
			switch e := e.(type) {
			case *ColumnRef:
				if e.Table != "" {
					at(e.At, e.Table)
				} else {
					at(e.At, e.Name)
				}
			case *Literal:
				switch e.Kind {
				case LitString:
					at(e.At, "'")
				default:
					at(e.At, e.Text)
				}
			case *IntervalLiteral:
				at(e.At, e.Text)
			case *Unary:
				at(e.At, e.Op)
				walk(e.X)
			case *Binary:
				require.LessOrEqual(t, e.At.Offset, e.L.Pos().Offset)
				walk(e.L)
				walk(e.R)
			case *IsNull:
				require.LessOrEqual(t, e.At.Offset, e.X.Pos().Offset) // (x) IS NULL starts at (
				walk(e.X)
			case *Cast:
				if e.Type.At != e.At {
					at(e.At, "CAST")
				}
				at(e.Type.At, strings.SplitN(e.Type.Name, "_", 2)[0])
				walk(e.X)
			case *FuncCall:
				if e.Name == "IS JSON" { // x IS JSON starts at x
					require.LessOrEqual(t, e.At.Offset, e.Args[0].Pos().Offset)
				} else {
					at(e.At, e.Name)
				}
				for _, a := range e.Args {
					walk(a)
				}
			case *WindowCall:
				at(e.At, e.Kind.String())
				for _, a := range e.Args {
					walk(a)
				}
			case *WindowAux:
				at(e.At, e.Kind.String()+"_"+e.Prop.String())
				for _, a := range e.Args {
					walk(a)
				}
			case *Subquery:
				if e.X != nil {
					require.LessOrEqual(t, e.At.Offset, e.X.Pos().Offset)
					walk(e.X)
				} else if e.Not {
					at(e.At, "NOT")
				} else {
					at(e.At, "EXISTS")
				}
				walkSelect(e.Query)
			case *ScalarSubquery:
				at(e.At, "(")
				walkSelect(e.Query)
			case *In:
				require.LessOrEqual(t, e.At.Offset, e.X.Pos().Offset)
				walk(e.X)
				for _, a := range e.List {
					walk(a)
				}
			case *Between:
				require.LessOrEqual(t, e.At.Offset, e.X.Pos().Offset)
				walk(e.X)
				walk(e.Lo)
				walk(e.Hi)
			case *Like:
				require.LessOrEqual(t, e.At.Offset, e.X.Pos().Offset)
				walk(e.X)
				walk(e.Pattern)
				if e.Escape != nil {
					walk(e.Escape)
				}
			case *Case:
				at(e.At, "CASE")
				if e.Operand != nil {
					walk(e.Operand)
				}
				for _, w := range e.Whens {
					walk(w.Cond)
					walk(w.Result)
				}
				if e.Else != nil {
					walk(e.Else)
				}
			case *Extract:
				at(e.At, "EXTRACT")
				walk(e.X)
			case *FieldAccess:
				require.Equal(t, e.X.Pos(), e.At)
				at(e.Field.At, e.Field.Name)
				walk(e.X)
			case *ItemAccess:
				require.Equal(t, e.X.Pos(), e.At)
				walk(e.X)
				walk(e.Index)
			case *Trim:
				at(e.At, "TRIM")
				if e.Chars != nil {
					walk(e.Chars)
				}
				walk(e.X)
			default:
				t.Fatalf("%s: expression %T not checked", in, e)
			}
		}
		walkSelect = func(s *Select) {
			v := s.From.Values
			insertValues := v != nil && s.At == v.At // INSERT ... VALUES: SELECT * at VALUES
			switch {
			case insertValues:
				at(s.At, "VALUES")
			case len(s.With) > 0:
				at(s.At, "WITH")
			default:
				at(s.At, "SELECT")
			}
			for _, c := range s.With {
				at(c.Name.At, c.Name.Name)
				for _, col := range c.Columns {
					at(col.At, col.Name)
				}
				walkSelect(c.Query)
			}
			for _, o := range s.OrderBy {
				if o.Expr == nil {
					at(o.At, strconv.Itoa(o.Position))
					continue
				}
				require.Equal(t, o.Expr.Pos(), o.At)
				walk(o.Expr)
			}
			if s.Limit != nil {
				word := src[s.Limit.At.Offset : s.Limit.At.Offset+5]
				at(s.Limit.At, map[bool]string{true: "FETCH", false: "LIMIT"}[strings.EqualFold(word, "FETCH")])
			}
			if v != nil {
				at(v.At, "VALUES")
				for _, row := range v.Rows {
					for _, e := range row {
						walk(e)
					}
				}
				for _, c := range v.Columns {
					at(c.At, c.Name)
				}
			}
			for _, it := range s.Items {
				if it.Star && insertValues {
					at(it.At, "VALUES")
				} else if it.Star && it.Table != "" {
					at(it.At, it.Table+".*")
				} else if it.Star {
					at(it.At, "*")
				} else {
					require.Equal(t, it.Expr.Pos(), it.At)
					walk(it.Expr)
				}
			}
			if w := s.From.Window; w != nil {
				at(w.At, "TABLE")
				require.Equal(t, w.Table, s.From.Name)
				at(w.Table.At, w.Table.Name)
				at(w.TimeCol.At, w.TimeCol.Name)
				for _, k := range w.PartitionBy {
					at(k.At, k.Name)
				}
				for _, a := range w.Args {
					walk(a)
				}
			} else if q := s.From.Subquery; q != nil {
				at(s.From.At, "(")
				walkSelect(q)
			} else if s.From.Name.Name != "" {
				at(s.From.Name.At, s.From.Name.Name)
			}
			for _, e := range []Expr{s.Where, s.Having} {
				if e != nil {
					walk(e)
				}
			}
			for _, e := range s.GroupBy {
				walk(e)
			}
		}
		walkInsert := func(s *Insert) {
			at(s.At, "INSERT")
			at(s.Table.At, s.Table.Name)
			for _, c := range s.Columns {
				at(c.At, c.Name)
			}
			walkSelect(s.Query)
		}
		for _, s := range stmts {
			switch s := s.(type) {
			case *CreateTable:
				at(s.At, "CREATE")
				at(s.Name.At, s.Name.Name)
				for _, c := range s.Columns {
					at(c.Name.At, c.Name.Name)
					if c.Computed != nil {
						walk(c.Computed)
					}
				}
				if s.Watermark != nil {
					at(s.Watermark.At, "WATERMARK")
					at(s.Watermark.Column.At, s.Watermark.Column.Name)
					walk(s.Watermark.Expr)
				}
				for _, o := range s.Options {
					at(o.At, "'"+strings.ReplaceAll(o.Key, "'", "''")+"'")
				}
			case *Select:
				walkSelect(s)
			case *CreateView:
				at(s.At, "CREATE")
				at(s.Name.At, s.Name.Name)
				for _, c := range s.Columns {
					at(c.At, c.Name)
				}
				at(s.Query.At, s.QueryText)
				walkSelect(s.Query)
			case *Drop:
				at(s.At, "DROP")
				at(s.Name.At, s.Name.Name)
			case *CreateFunction:
				at(s.At, "create")
				at(s.Name.At, s.Name.Name)
				at(s.IdentifierAt, "'")
			case *DropFunction:
				at(s.At, "DROP")
				at(s.Name.At, s.Name.Name)
			case *Set:
				at(s.At, "SET")
			case *Reset:
				at(s.At, "RESET")
			case *Show:
				at(s.At, "SHOW")
				if s.Name.Name != "" {
					at(s.Name.At, s.Name.Name)
				}
			case *Use:
				at(s.At, "USE")
				at(s.Name.At, s.Name.Name)
			case *Describe:
				at(s.At, "DESC")
				at(s.Name.At, s.Name.Name)
			case *Explain:
				at(s.At, "EXPLAIN")
				switch x := s.Stmt.(type) {
				case *Select:
					walkSelect(x)
				case *Insert:
					walkInsert(x)
				}
			case *Insert:
				walkInsert(s)
			default:
				t.Fatalf("%s: statement %T not checked", in, s)
			}
		}
	}
	require.Greater(t, checked, 100)
}

// FuzzParse checks that Parse never panics, that every error points into
// the input with a line and column that match its offset, and that every
// statement it returns survives Format and Parse unchanged. The goldens
// seed the corpus.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"SELECT a FROM t GROUP BY TUMBLE(ts, INTERVAL '1' MINUTE)",
		"CREATE TABLE t (ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH ('a' = 'b')",
		"SELECT CAST(CAST(a AS INT) AS STRING), 'x;y' -- c\n FROM t; SELECT 1",
		"SELECT INTERVAL '1 02:03' DAY TO MINUTE, COUNT(*) FROM t",
	} {
		f.Add(s)
	}
	goldens, err := filepath.Glob(filepath.Join("..", "testdata", "sql", "*.sql"))
	require.NoError(f, err)
	for _, in := range goldens {
		b, err := os.ReadFile(in)
		require.NoError(f, err)
		f.Add(string(b))
	}
	f.Fuzz(func(t *testing.T, src string) {
		stmts, err := Parse(src)
		if err != nil {
			require.Nil(t, stmts)
			var list ErrorList
			require.ErrorAs(t, err, &list)
			for _, e := range list {
				require.True(t, e.Pos.Offset >= 0 && e.Pos.Offset <= len(src), "%v outside the input", e)
				require.Equal(t, newSource(src).pos(e.Pos.Offset), e.Pos, "%v", e)
			}
			return
		}
		for _, s := range stmts {
			require.True(t, s.Pos().IsValid())
			requireRoundTrip(t, s)
		}
	})
}
