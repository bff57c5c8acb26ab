// Package sql reads wsql's SQL dialect, Apache Flink SQL's, into wsql's own
// syntax tree (ast.go) with a position in the user's text on every node and
// every error.
//
// The package wraps TiDB's MySQL parser instead of forking it. Parse runs
// four steps:
//
//  1. A small lexer (lexer.go) reads the original text once into tokens
//     with byte offsets, lines and rune columns. It knows strings,
//     back-quoted names and both comment forms, so text inside them is
//     never mistaken for SQL, and it splits statements at ';'.
//  2. A rewriter (rewrite.go) turns the Flink forms MySQL lacks into text
//     TiDB accepts: TUMBLE(...) becomes the call __wsql_tumble(...),
//     INTERVAL '5' SECOND becomes __wsql_interval(k), CAST(x AS STRING)
//     becomes __wsql_cast(x, k), FROM TABLE(TUMBLE(...)) becomes FROM
//     `__wsql_tvf_k`, EXTRACT(DOW FROM x) becomes __wsql_extract(k, x),
//     where k indexes values the rewriter has already read from the
//     tokens (interval.go, types.go, tvf.go, extract.go); a LIKE's ESCAPE
//     literal becomes a one-byte marker (escape.go). Every emitted token
//     is a splice (splice.go): original span -> rewritten span.
//  3. TiDB parses the rewritten text (tidb.go). On a syntax error its
//     message quotes the rest of the input from the failing token; the
//     length of that suffix gives the offset in the rewritten text, and the
//     splices map it back to the user's line and column.
//  4. A lifter (lift.go) converts TiDB's AST into wsql's. TiDB records the
//     offset of each expression's first token; the splices map it back, and
//     the user's token found there settles what TiDB's AST forgets (1.50 as
//     written, TRUE rather than 1, COUNT(*) rather than COUNT(1), || rather
//     than CONCAT). The placeholders become WindowCall, WindowAux,
//     IntervalLiteral, Cast, Extract and WindowTVF nodes. A subquery in
//     FROM is lifted like a statement of its own over the tokens inside
//     its parentheses (subquery.go). Constructs wsql cannot
//     run yet are ErrUnsupported errors at their position, never
//     silently dropped.
//
// Statements MySQL's grammar does not fit are read from tokens directly
// (reader.go), and only their expressions and queries go through steps
// 2-4: CREATE TABLE (ddl.go) is mostly Flink-only syntax (types, WATERMARK
// FOR, WITH options); CREATE VIEW (view.go), DROP (drop.go), INSERT
// (insert.go) and EXPLAIN (explain.go) end in a query that query.go hands
// to TiDB; SET, RESET, SHOW and DESCRIBE (client.go) are the Flink SQL
// client's. Window table-valued functions in FROM (tvf.go), TABLE(TUMBLE(
// TABLE t, DESCRIPTOR(ts), ...)), are read by the rewriter, which hands
// TiDB a placeholder table name in their place.
//
// Format (format.go) prints a statement back as canonical Flink SQL that
// Parse reads into the same tree, positions aside.
//
// Positions are data: Pos, Error and ErrorList (pos.go) carry them, errors
// wrap the sentinels ErrSyntax, ErrUnsupported and ErrInvalid, and Caret
// draws the user's line with a caret under the position. TiDB's AST never
// leaves the package.
package sql
