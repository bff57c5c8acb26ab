package sql

import (
	"strconv"
	"strings"

	"github.com/wsql/wsql/sql/jsonform"
)

// The rewriter turns the tokens of one statement (or one expression) into
// text that TiDB's MySQL grammar accepts. Flink forms MySQL lacks become
// calls of reserved internal functions that the lifter turns back into wsql
// nodes:
//
//	TUMBLE(ts, ...)            -> __wsql_tumble(ts, ...)       (likewise HOP, SESSION,
//	TUMBLE_START(ts, ...)      -> __wsql_tumble_start(ts, ...)  CUMULATE, COUNT_WINDOW and
//	                                                            their auxiliaries)
//	INTERVAL '5' SECOND        -> __wsql_interval(0)            (0 indexes rewritten.intervals)
//	CAST(x AS TIMESTAMP_LTZ(3)) -> __wsql_cast(x, 0)            (0 indexes rewritten.casts)
//	FROM TABLE(TUMBLE(...))    -> FROM `__wsql_tvf_0`           (0 indexes rewritten.tvfs; tvf.go)
//	FROM (VALUES ...) AS t(a)  -> FROM `__wsql_values_0` AS t   (0 indexes rewritten.values; values.go)
//	, UNNEST(a) AS t(x)        -> , `__wsql_lateral_0`          (0 indexes rewritten.laterals; lateral.go)
//	EXTRACT(DOW FROM ts)       -> __wsql_extract(0, ts)         (0 indexes rewritten.extracts; extract.go)
//	LIKE p ESCAPE '!'          -> LIKE p ESCAPE 'A'             (A marks rewritten.escapes[0]; escape.go)
//	COUNT(*) FILTER (WHERE c)  -> __wsql_filter(COUNT(*), c)    (filter.go)
//	LISTAGG(DISTINCT x)        -> __wsql_distinct(LISTAGG(x))   (filter.go)
//	GROUPING SETS ((a), ())    -> __wsql_grouping_sets(__wsql_set(a), __wsql_set())  (grouping_sets.go)
//	TRIM(FROM x)               -> TRIM(BOTH FROM x)
//	arr[1], a.b.c, ARRAY[1, 2] -> __wsql_item(arr, 1), ...       (value_access.go)
//	TRY_CAST(x AS t), FLOOR(x TO DAY), TIMESTAMPADD(DAY, ...), IS DISTINCT FROM,
//	BETWEEN SYMMETRIC, SIMILAR TO, CASE x WHEN a, b     (flink_forms.go)
//	key                        -> `key`                         (MySQL-only reserved words)
//
// Literal values and types are read here from tokens and kept in side
// tables, so nothing needs to be re-parsed from TiDB's AST. Every emitted
// token is recorded as a splice.

// internalPrefix starts the names of the placeholder functions. Users may
// not write names with it, so a placeholder always comes from a rewrite.
const internalPrefix = "__wsql_"

// rewritten is the text handed to TiDB together with what is needed to
// bring its answer back to the user's text.
type rewritten struct {
	src       *source
	toks      []token // the original tokens that were rewritten
	text      string
	splices   spliceMap
	intervals []*IntervalLiteral
	casts     []TypeName
	tvfs      []*WindowTVF
	values    []*Values
	laterals  []*Lateral     // UNNEST and LATERAL TABLE (lateral.go)
	extracts  []string       // EXTRACT units (extract.go)
	escapes   []*Literal     // LIKE ... ESCAPE literals (escape.go)
	jsons     []*JSONClauses // clauses of JSON functions (json.go)
	fields    []Ident        // field names of value access (value_access.go)
	units     []string       // time units of FLOOR(x TO unit), TIMESTAMPADD (flink_forms.go)
	// systemTimes are the FOR SYSTEM_TIME AS OF clauses of temporal
	// joins (join.go), by the offset of the table name they follow.
	systemTimes map[int]*ColumnRef
}

// plainAggregates are Flink aggregate functions that MySQL's grammar only
// accepts as window functions (with OVER); they are renamed so TiDB parses
// them as ordinary calls, and lifted back to FuncCall.
var plainAggregates = map[string]bool{"FIRST_VALUE": true, "LAST_VALUE": true}

// renamedCalls are Flink functions whose name MySQL's grammar reads as
// something else (REGEXP is an operator there), renamed so TiDB parses a
// call, and lifted back to FuncCall (CARDINALITY, ARRAY, ROW and SPLIT are words of TiDB's grammar). OVERLAY's keywords become commas:
// OVERLAY(s PLACING r FROM i FOR n) is the call OVERLAY(s, r, i, n).
var renamedCalls = map[string]bool{"REGEXP": true, "OVERLAY": true, "CARDINALITY": true, "ARRAY": true, "ROW": true, "SPLIT": true}

// windowFuncs maps the Flink group window functions and their auxiliaries
// to what they mean; Prop is zero for the window functions themselves.
// COUNT_WINDOW's would-be auxiliaries (COUNT_WINDOW_START, ...) are here
// too, so the lifter can say why they do not exist.
var windowFuncs = func() map[string]WindowAux {
	m := map[string]WindowAux{}
	for _, k := range []WindowKind{Tumble, Hop, Session, Cumulate, CountWindow} {
		m[k.String()] = WindowAux{Kind: k}
		for _, p := range []WindowProp{WindowStart, WindowEnd, WindowRowtime, WindowProctime} {
			m[k.String()+"_"+p.String()] = WindowAux{Kind: k, Prop: p}
		}
	}
	return m
}()

// mysqlOnlyReserved are words MySQL reserves but Flink lets users write as
// plain names; the rewriter back-quotes them so TiDB reads them as names.
var mysqlOnlyReserved = map[string]bool{
	"KEY": true, "KEYS": true, "INDEX": true, "USAGE": true, "READ": true, "WRITE": true,
	"RELEASE": true, "LINES": true, "OPTION": true, "DUAL": true, "LOCK": true, "UNLOCK": true,
	"OUTFILE": true, "INFILE": true, "TERMINATED": true, "OPTIONALLY": true, "ENCLOSED": true,
	"ESCAPED": true, "ZEROFILL": true, "UNSIGNED": true, "SPATIAL": true, "FULLTEXT": true,
	"EXIT": true, "INOUT": true, "REPEAT": true, "LEAVE": true, "ITERATE": true, "CURSOR": true,
	"ELSEIF": true, "WHILE": true, "REQUIRE": true, "RESTRICT": true, "CASCADE": true,
	"CHANGE": true, "RENAME": true, "IGNORE": true, "HIGH_PRIORITY": true, "LOW_PRIORITY": true,
	"DELAYED": true, "FORCE": true, "ANALYZE": true, "LINEAR": true, "DATABASES": true,
	"SCHEMAS": true, "LONG": true, "GENERATED": true, "STORED": true, "VIRTUAL": true,
	"DISTINCTROW": true, "SSL": true, "STARTING": true, "OPTIMIZE": true, "KILL": true,
	"UNTIL": true, "MAXVALUE": true, "SQL": true,
}

// rewrite rewrites toks, which must not contain ';'. prefix is put before
// the text unchanged (ParseExpr uses "SELECT ").
func rewrite(src *source, toks []token, prefix string) (*rewritten, *Error) {
	rw := &rewritten{src: src, toks: toks}
	filters, ferr := findFilters(toks)
	if ferr != nil {
		return nil, ferr
	}
	access, aerr := rw.findValueAccess(toks)
	if aerr != nil {
		return nil, aerr
	}
	var b strings.Builder
	b.WriteString(prefix)
	emit := func(i, j int, text string) { // toks[i:j] become text
		if i > 0 && toks[i].off > toks[i-1].end && b.Len() > 0 {
			b.WriteByte(' ') // keep adjacency: MySQL reads "count (" differently from "count("
		}
		text = filters.prefix(i) + access.prefix[i] + text // filter.go, value_access.go
		if filters.distinctEnds[i] {
			text += ")"
		}
		if filters.nulls.ignoreEnds[i] {
			text += ")"
		}
		start := b.Len()
		b.WriteString(text)
		rw.splices.add(splice{origStart: toks[i].off, origEnd: toks[j-1].end, rewStart: start, rewEnd: b.Len()})
	}
	// casts pending: index of a CAST's AS -> its closing ")" and side-table index
	type pendingCast struct{ end, idx int }
	castAt := map[int]pendingCast{}
	later := map[int]replacement{} // later parts of a Flink form (flink_forms.go)
	edits := access.edits          // value access (value_access.go) and JSON functions' clauses (json.go)
	if err := findOverlaps(toks, edits); err != nil {
		return nil, err
	}
	findGroupingSets(toks, edits) // grouping_sets.go

	commaAt := map[int]bool{} // OVERLAY's PLACING, FROM and FOR
	for i := 0; i < len(toks); {
		t := toks[i]
		next := token{}
		if i+1 < len(toks) {
			next = toks[i+1]
		}
		word := strings.ToUpper(t.text)
		switch {
		case edits[i].end > 0:
			e := edits[i]
			emit(i, e.end, e.text)
			i = e.end
		case later[i].end > 0:
			r := later[i]
			emit(i, r.end, r.text)
			i = r.end
		case isFlinkForm(toks, i):
			rs, err := rw.flinkForm(toks, i)
			if err != nil {
				return nil, err
			}
			for _, r := range rs[1:] {
				later[r.start] = r
			}
			emit(i, rs[0].end, rs[0].text)
			i = rs[0].end
		case t.kind == tokIdent && next.isOp("(") && jsonform.Forms[word]:
			es, err := rw.jsonCall(toks, i)
			if err != nil {
				return nil, err
			}
			for k, e := range es {
				edits[k] = e
			}
		case t.is("IS") && next.kind == tokIdent && (next.is("JSON") || next.is("NOT")):
			j, text := rw.isJSON(toks, i)
			if j == i {
				emit(i, i+1, t.text)
				i++
				continue
			}
			emit(i, j, text)
			i = j
		case castAt[i].end > 0:
			// AS <type> of a CAST, whose type is already in rw.casts.
			c := castAt[i]
			emit(i, c.end, ", "+strconv.Itoa(c.idx))
			i = c.end
		case commaAt[i]:
			emit(i, i+1, ",")
			i++
		case t.kind == tokIdent && next.isOp("(") && renamedCalls[word]:
			if word == "OVERLAY" {
				for _, w := range []string{"PLACING", "FROM", "FOR"} {
					if k := wordInParens(toks, i+1, w); k >= 0 {
						commaAt[k] = true
					}
				}
			}
			emit(i, i+1, internalPrefix+strings.ToLower(word))
			i++
		case filters.clauses[i]:
			if end := closeParen(toks, i+1); end >= 0 && end+1 < len(toks) && toks[end+1].is("OVER") {
				return nil, Errorf(ErrUnsupported, t.pos, "FILTER is not supported on an OVER aggregate; filter in WHERE, or aggregate a CASE expression")
			}
			emit(i, i+3, ",") // FILTER (WHERE c) -> , c)
			i += 3
		case filters.distinctWords[i]:
			emit(i, i+1, "") // LISTAGG(DISTINCT x) -> __wsql_distinct(LISTAGG(x))
			i++
		case filters.nulls.words[i]:
			emit(i, i+2, "") // ARRAY_AGG(x IGNORE NULLS) -> __wsql_ignorenulls(ARRAY_AGG(x))
			i += 2
		case t.isName() && strings.HasPrefix(strings.ToLower(t.value()), internalPrefix):
			return nil, Errorf(ErrInvalid, t.pos, "names starting with %s are reserved for wsql", internalPrefix)
		case t.kind == tokIdent && next.isOp("(") && overUnparsed(toks, i):
			return nil, Errorf(ErrUnsupported, t.pos, "%s OVER (...) is not supported yet: OVER aggregates are COUNT, SUM, AVG, MIN, MAX, STDDEV_POP, STDDEV_SAMP, VAR_POP and VAR_SAMP", word)
		case t.kind == tokIdent && next.isOp("(") && (windowFuncs[word].Kind != 0 || plainAggregates[word] || overOnlyWithoutOver(toks, i)):
			emit(i, i+1, internalPrefix+strings.ToLower(word))
			i++
		case t.is("INTERVAL"):
			lit, j, err := parseInterval(src, toks, i)
			if err != nil {
				return nil, err
			}
			if j < len(toks) && (toks[j].is("PRECEDING") || toks[j].is("FOLLOWING")) {
				// an OVER frame's bound: TiDB reads INTERVAL n unit there,
				// and the lifter finds the literal by n (frameBound)
				emit(i, j, "INTERVAL "+strconv.Itoa(len(rw.intervals))+" MICROSECOND")
			} else {
				emit(i, j, internalPrefix+"interval("+strconv.Itoa(len(rw.intervals))+")")
			}
			rw.intervals = append(rw.intervals, lit)
			i = j
		case (t.is("CAST") || t.is("TRY_CAST")) && next.isOp("("):
			as, end, tn, err := castType(toks, i)
			if err != nil {
				return nil, err
			}
			castAt[as] = pendingCast{end: end, idx: len(rw.casts)}
			rw.casts = append(rw.casts, tn)
			emit(i, i+1, internalPrefix+strings.ToLower(word))
			i++
		case t.is("EXTRACT") && next.isOp("("):
			end, err := rw.extractUnit(toks, i)
			if err != nil {
				return nil, err
			}
			emit(i, i+1, internalPrefix+"extract")
			emit(i+1, i+2, "(")
			emit(i+2, end, strconv.Itoa(len(rw.extracts)-1)+",")
			i = end
		case t.is("TRIM") && next.isOp("(") && i+2 < len(toks) && toks[i+2].is("FROM"):
			// Flink's TRIM(FROM x) is MySQL's TRIM(BOTH FROM x).
			emit(i, i+1, t.text)
			emit(i+1, i+2, "(")
			emit(i+2, i+3, "BOTH FROM")
			i += 3
		case isEscapeClause(toks, i):
			marker, err := rw.escapeMarker(next)
			if err != nil {
				return nil, err
			}
			emit(i, i+1, t.text)
			emit(i+1, i+2, marker)
			i += 2
		case t.is("FOR") && next.is("SYSTEM_TIME"):
			j, err := rw.systemTime(toks, i)
			if err != nil {
				return nil, err
			}
			emit(i, j, "")
			i = j
		case t.is("FULL") && joinWordsEnd(toks, i) > i:
			// MySQL has no FULL JOIN: TiDB reads the LEFT JOIN, and the
			// lifter the FULL before it (join.go).
			emit(i, i+1, "LEFT")
			i++
		case isLateralStart(toks, i):
			text, j, err := rw.lateral(toks, i)
			if err != nil {
				return nil, err
			}
			emit(i, j, text)
			i = j
		case t.is("TABLE") && next.isOp("("):
			if i == 0 || !(toks[i-1].is("FROM") || toks[i-1].is("JOIN")) {
				return nil, Errorf(ErrSyntax, t.pos, "TABLE(...) can only follow FROM, as in FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' MINUTE))")
			}
			tvf, j, err := parseWindowTVF(src, toks, i)
			if err != nil {
				return nil, err
			}
			// Back-quoted, so a token right after it cannot join the name.
			emit(i, j, "`"+internalPrefix+"tvf_"+strconv.Itoa(len(rw.tvfs))+"`")
			rw.tvfs = append(rw.tvfs, tvf)
			i = j
		case t.isOp("(") && next.is("VALUES") && i > 0 && toks[i-1].is("FROM"):
			v, j, err := parseFromValues(src, toks, i)
			if err != nil {
				return nil, err
			}
			emit(i, j, "`"+internalPrefix+"values_"+strconv.Itoa(len(rw.values))+"`")
			rw.values = append(rw.values, v)
			i = j
		case t.kind == tokNumber && (len(t.text) > 20 || strings.ContainsAny(t.text, "eE") || strings.HasSuffix(t.text, ".")):
			// The lifter reads numbers from the user's tokens, so TiDB only
			// needs one of the same shape; long or huge ones make its
			// decimal code panic or fail without a position, and after one
			// ending in '.' its lexer reads the next word as a name, as in
			// t.col ("1. AS x" fails).
			emit(i, i+1, numberShape(t.text))
			i++
		case t.kind == tokIdent && mysqlOnlyReserved[word] && !next.isOp("("):
			emit(i, i+1, "`"+t.text+"`")
			i++
		default:
			emit(i, i+1, t.text)
			i++
		}
	}
	rw.text = b.String()
	return rw, nil
}

// castType finds the AS of the CAST at toks[i] and reads the type after
// it, which must reach the CAST's closing parenthesis.
func castType(toks []token, i int) (as, end int, tn TypeName, err *Error) {
	depth := 0
	as = -1
	for k := i + 1; k < len(toks); k++ {
		switch {
		case toks[k].isOp("("):
			depth++
		case toks[k].isOp(")"):
			depth--
			if depth > 0 {
				continue
			}
			if as < 0 {
				return 0, 0, TypeName{}, Errorf(ErrSyntax, toks[k].pos, "expected AS and a type in CAST, as in CAST(x AS BIGINT)")
			}
			tn, j, err := parseType(toks, as+1)
			if err != nil {
				return 0, 0, TypeName{}, err
			}
			if j != k {
				return 0, 0, TypeName{}, Errorf(ErrSyntax, toks[j].pos, "expected ) after the type of CAST")
			}
			return as, k, tn, nil
		case depth == 1 && as < 0 && toks[k].is("AS"):
			as = k
		}
	}
	return 0, 0, TypeName{}, Errorf(ErrSyntax, toks[i].pos, "CAST is not closed: missing )")
}

// wordInParens returns the index of the word w directly inside the
// parentheses opened at toks[open], or -1.
func wordInParens(toks []token, open int, w string) int {
	depth := 0
	for k := open; k < len(toks); k++ {
		switch {
		case toks[k].isOp("("):
			depth++
		case toks[k].isOp(")"):
			if depth--; depth == 0 {
				return -1
			}
		case depth == 1 && toks[k].is(w):
			return k
		}
	}
	return -1
}

// numberShape is a small number of the same kind as text: 0, 0.0 or 0e0.
func numberShape(text string) string {
	switch {
	case strings.ContainsAny(text, "eE"):
		return "0e0"
	case strings.Contains(text, "."):
		return "0.0"
	}
	return "0"
}
