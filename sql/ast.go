package sql

// This file holds wsql's own syntax tree. The TiDB parser's AST never leaves
// this package: Parse converts it into these nodes, so the planner and the
// catalog depend on wsql's dialect, not on MySQL's grammar. Every node keeps
// the position of its first token in the user's original text.

// Statement is one parsed SQL statement.
type Statement interface {
	Pos() Pos
	statement()
}

// Ident is a name as the user wrote it (back-quotes removed) and where.
type Ident struct {
	Name string
	At   Pos
}

// CreateTable is Flink's CREATE TABLE with columns, an optional WATERMARK
// clause and WITH options.
type CreateTable struct {
	At          Pos
	Name        Ident
	IfNotExists bool
	Columns     []ColumnDef
	Watermark   *WatermarkDef // nil when the table has no rowtime attribute
	PrimaryKey  *PrimaryKey   // nil when none is declared
	Comment     string
	// PartitionedBy are the columns of PARTITIONED BY (cols), in order;
	// the catalog checks them against the columns.
	PartitionedBy []Ident
	Options       []Option   // in the order written
	Like          *TableLike // LIKE source [(options)], or nil
	Query         *Select    // AS query (CREATE TABLE ... AS SELECT), or nil
}

// PrimaryKey is [CONSTRAINT name] PRIMARY KEY (cols) NOT ENFORCED, written
// on the table or on its one column.
type PrimaryKey struct {
	At      Pos
	Name    string // "" when not named
	Columns []Ident
}

// TableLike is CREATE TABLE's LIKE source [(INCLUDING ALL, ...)]: the
// table starts from source's definition, merged as the options say.
type TableLike struct {
	At      Pos
	Table   Ident
	Options []LikeOption // in the order written
}

// LikeOption is one merging option of LIKE: Mode is INCLUDING, EXCLUDING
// or OVERWRITING; Feature is ALL, CONSTRAINTS, PARTITIONS, GENERATED,
// METADATA, OPTIONS or WATERMARKS.
type LikeOption struct {
	At      Pos
	Mode    string
	Feature string
}

// ColumnDef is one column of CREATE TABLE. Computed is set for a computed
// column (`name AS expr`), whose Type is then the zero TypeName. Metadata
// is set for `name type METADATA [FROM 'key'] [VIRTUAL]`; MetadataKey is
// the key written after FROM ("" when the name is the key).
type ColumnDef struct {
	Name        Ident
	Type        TypeName
	NotNull     bool
	Computed    Expr
	Metadata    bool
	MetadataKey string
	Virtual     bool
	Comment     string
}

// TypeName is a SQL type as written. Name is canonical upper case:
// STRING, VARCHAR, CHAR, BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT,
// DOUBLE, DECIMAL, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ. Precision and Scale
// are -1 when not written (VARCHAR(n) keeps n in Precision).
type TypeName struct {
	Name      string
	Precision int
	Scale     int
	At        Pos
	// Nested types (nested_types.go): ARRAY and MULTISET hold Elem, MAP
	// Key and Elem (its value), ROW its Fields. NotNull is a nested
	// type's element or field declared NOT NULL.
	Elem    *TypeName
	Key     *TypeName
	Fields  []TypeField
	NotNull bool
	// Interval is an INTERVAL type's qualifier (interval_type.go).
	Interval *Interval
}

// TypeField is a field of a ROW type: `name type ['description']`.
type TypeField struct {
	Name        string
	Type        TypeName
	Description string
}

// WatermarkDef is `WATERMARK FOR column AS expr`.
type WatermarkDef struct {
	At     Pos
	Column Ident
	Expr   Expr
}

// Option is one 'key' = 'value' pair of a WITH clause.
type Option struct {
	Key   string
	Value string
	At    Pos
}

// Select is a SELECT statement. A group window in GROUP BY appears in
// GroupBy as a *WindowCall.
type Select struct {
	At      Pos
	Items   []SelectItem
	From    TableRef
	Where   Expr // nil when absent
	GroupBy []Expr
	// GroupingSets are the sets of GROUPING SETS, ROLLUP and CUBE
	// (grouping_sets.go), their cross product taken; each set groups by
	// GroupBy's expressions and its own. Nil when absent.
	GroupingSets [][]Expr
	Having       Expr // nil when absent
	// Distinct locates the DISTINCT of SELECT DISTINCT; zero when absent.
	Distinct Pos
	// With are the common table expressions of WITH (with.go), in the
	// order written; OrderBy and Limit the clauses that end the query
	// (order_limit.go): nil when absent.
	With    []CTE
	OrderBy []OrderItem
	Limit   *Limit
	// Set, when set, makes the query a set operation (set_operation.go).
	Set *SetOp
}

// SelectItem is one entry of the select list: an expression with an
// optional alias, or `*`.
type SelectItem struct {
	At    Pos
	Expr  Expr // nil for *
	Alias string
	Star  bool
	// Table qualifies a star, t.*: the columns of one table of a join.
	Table string
}

// TableRef names the table a SELECT reads. When Window is set the FROM
// clause is a window table-valued function, FROM TABLE(TUMBLE(TABLE t, ...)),
// and Name is the table t it windows.
type TableRef struct {
	Name   Ident
	Alias  string
	Window *WindowTVF
	// Subquery is set for FROM (SELECT ...) [AS] alias; Name is then empty
	// and At locates the opening parenthesis.
	Subquery *Select
	// Values is set for FROM (VALUES ...) [AS] alias [(cols)]; Name is then
	// empty.
	Values *Values
	At     Pos
	// Hint is set when a table hint follows the table's name.
	Hint *TableHint
	// Join is set for a join of two table references (join.go); Name is
	// then empty and At locates the left one.
	Join *Join
	// SystemTime is the column of FOR SYSTEM_TIME AS OF, which makes the
	// table the versioned side of a temporal join; nil when absent.
	SystemTime *ColumnRef
	// Lateral is set for UNNEST(...) and LATERAL TABLE(...) (lateral.go);
	// Name is then empty and Alias is the Lateral's.
	Lateral *Lateral
}

// Values is a table of literal rows, VALUES (1, 'a'), (2, 'b'). Columns
// names them (none: Flink's EXPR$0, EXPR$1, ...); Alias is the table's name.
type Values struct {
	At      Pos
	Rows    [][]Expr // every row has the same number of values
	Alias   string
	Columns []Ident
}

// TableHint is Flink's dynamic table options, FROM t /*+ OPTIONS('k' =
// 'v', ...) */ or INSERT INTO t /*+ OPTIONS(...) */: options that add to
// or override the table's WITH options for this statement only. The
// options of several OPTIONS hints of the table are merged.
type TableHint struct {
	At      Pos      // the first OPTIONS
	Options []Option // in the order written; each At is its key's
}

// WindowTVF is one of Flink's window table-valued functions:
//
//	TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), size [, offset]))
//	TABLE(HOP(TABLE t, DESCRIPTOR(ts), slide, size [, offset]))
//	TABLE(CUMULATE(TABLE t, DESCRIPTOR(ts), step, size [, offset]))
//	TABLE(SESSION(TABLE t PARTITION BY k, DESCRIPTOR(ts), gap))
//
// Named arguments (SIZE => ..., SLIDE => ..., STEP => ..., GAP => ...,
// OFFSET => ..., DATA => ..., TIMECOL => ...) are put in this positional
// order, so Args reads like the group-window form: slide before size.
type WindowTVF struct {
	At          Pos
	Kind        WindowKind
	Table       Ident
	PartitionBy []Ident // SESSION only
	TimeCol     Ident   // the DESCRIPTOR column
	Args        []Expr  // the interval arguments in positional order
}

// CreateView is CREATE [TEMPORARY] VIEW [IF NOT EXISTS] name [(cols)]
// [COMMENT 'text'] AS query.
type CreateView struct {
	At          Pos
	Name        Ident
	Temporary   bool
	IfNotExists bool
	Columns     []Ident // optional column names
	Comment     string
	Query       *Select
	QueryText   string // the query exactly as the user wrote it
}

// Drop is DROP [TEMPORARY] TABLE|VIEW [IF EXISTS] name.
type Drop struct {
	At        Pos
	View      bool
	Temporary bool
	IfExists  bool
	Name      Ident
}

// Set is SET 'key' = 'value'; SET alone (Key == "") lists the settings.
type Set struct {
	At    Pos
	Key   string
	Value string
}

// Reset is RESET 'key'; RESET alone (Key == "") resets every setting.
type Reset struct {
	At  Pos
	Key string
}

// Show is a SHOW statement. What is upper case: TABLES, VIEWS, FUNCTIONS,
// COLUMNS, CREATE TABLE, CREATE VIEW, CURRENT CATALOG, CURRENT DATABASE,
// CATALOGS or DATABASES. Name is the table of COLUMNS and CREATE; Like
// (LIKE or ILIKE, empty when absent), NotLike and Pattern filter a listing.
type Show struct {
	At      Pos
	What    string
	Name    Ident
	Like    string
	NotLike bool
	Pattern string
}

// Use is USE name or USE CATALOG name.
type Use struct {
	At      Pos
	Catalog bool
	Name    Ident
}

// Describe is DESCRIBE name or DESC name.
type Describe struct {
	At   Pos
	Name Ident
}

// Explain is EXPLAIN [PLAN FOR] stmt, where stmt is a *Select or *Insert.
type Explain struct {
	At   Pos
	Stmt Statement
}

// Insert is INSERT INTO|OVERWRITE sink [(cols)] query.
type Insert struct {
	At        Pos
	Table     Ident
	Overwrite bool
	Hint      *TableHint // dynamic options of the table written, or nil
	Columns   []Ident
	Query     *Select
}

func (s *CreateTable) Pos() Pos { return s.At }
func (s *Select) Pos() Pos      { return s.At }
func (s *CreateView) Pos() Pos  { return s.At }
func (s *Drop) Pos() Pos        { return s.At }
func (s *Set) Pos() Pos         { return s.At }
func (s *Reset) Pos() Pos       { return s.At }
func (s *Show) Pos() Pos        { return s.At }
func (s *Describe) Pos() Pos    { return s.At }
func (s *Use) Pos() Pos         { return s.At }
func (s *Explain) Pos() Pos     { return s.At }
func (s *Insert) Pos() Pos      { return s.At }
func (*CreateTable) statement() {}
func (*Select) statement()      {}
func (*CreateView) statement()  {}
func (*Drop) statement()        {}
func (*Set) statement()         {}
func (*Reset) statement()       {}
func (*Show) statement()        {}
func (*Describe) statement()    {}
func (*Use) statement()         {}
func (*Explain) statement()     {}
func (*Insert) statement()      {}

// Expr is a scalar expression.
type Expr interface {
	Pos() Pos
	expr()
}

// ColumnRef is a column name, optionally qualified by a table name.
// NameAt locates Name when Table is set: t.name, or row.field, which the
// planner reads as a field when row is a column (value_access.go).
type ColumnRef struct {
	At     Pos
	Table  string
	Name   string
	NameAt Pos
}

// LiteralKind tells how a Literal's text is to be read.
type LiteralKind int

const (
	LitNull LiteralKind = iota
	LitBool
	LitInt     // integer digits, e.g. 42
	LitDecimal // exact number with a point, e.g. 1.5
	LitFloat   // approximate number, e.g. 1.5e3
	LitString
	LitBinary // X'0A0B': Text is the hex digits
)

// Literal is a constant. Text holds the value: digits as written for
// numbers, the unquoted content for strings, "TRUE"/"FALSE" for booleans.
type Literal struct {
	At   Pos
	Kind LiteralKind
	Text string
}

// IntervalLiteral is a day-time interval such as INTERVAL '5' SECOND,
// already converted to milliseconds, or (YearMonth) a year-month interval
// such as INTERVAL '1-2' YEAR TO MONTH in Months. Text is the literal as
// the user wrote it.
type IntervalLiteral struct {
	At        Pos
	Millis    int64
	Months    int64
	YearMonth bool
	Text      string
}

// Unary is a prefix operator: "-", "+" or "NOT".
type Unary struct {
	At Pos
	Op string
	X  Expr
}

// Binary is an infix operator. Op is one of
// + - * / % = <> < <= > >= AND OR || IS DISTINCT FROM, IS NOT DISTINCT FROM.
type Binary struct {
	At   Pos
	Op   string
	L, R Expr
}

// IsNull is `x IS NULL` or, with Not, `x IS NOT NULL`.
type IsNull struct {
	At  Pos
	X   Expr
	Not bool
}

// Cast is CAST(x AS type), or a typed literal (TIME '12:00:01') when
// Literal is set: a TIME or TIMESTAMP literal's precision is its fraction's
// digits (LiteralPrecision), a CAST's the type's. With Try it is
// TRY_CAST(x AS type): NULL where the value does not convert.
type Cast struct {
	At      Pos
	X       Expr
	Type    TypeName
	Literal bool
	Try     bool
}

// FuncCall is a call of a scalar or aggregate function. Name is upper case.
// Star is set for COUNT(*); Distinct for COUNT(DISTINCT x) and the like;
// Filter is an aggregate's FILTER (WHERE condition).
type FuncCall struct {
	At       Pos
	Name     string
	Args     []Expr
	Star     bool
	Distinct bool
	// Unit is the time unit of FLOOR(x TO unit) and TIMESTAMPADD(unit, n,
	// t) and their relatives, upper case; "" for other calls.
	Unit string
	// JSON is the clauses of a JSON function (json.go); the call named
	// "IS JSON" is x IS [NOT] JSON [type].
	JSON *JSONClauses
	// Filter is an aggregate's FILTER (WHERE condition).
	Filter Expr
	// IgnoreNulls is ARRAY_AGG(x IGNORE NULLS) (nulls.go).
	IgnoreNulls bool
}

// WindowKind names a group window function.
type WindowKind int

const (
	Tumble WindowKind = iota + 1
	Hop
	Session
	Cumulate
	// CountWindow is wsql's COUNT_WINDOW(n [, slide]): per key, windows of
	// n rows in arrival order (sliding: the last n rows every slide rows),
	// Flink's KeyedStream.countWindow. It has no time attribute and no
	// auxiliary functions.
	CountWindow
)

func (k WindowKind) String() string {
	switch k {
	case Tumble:
		return "TUMBLE"
	case Hop:
		return "HOP"
	case Session:
		return "SESSION"
	case Cumulate:
		return "CUMULATE"
	case CountWindow:
		return "COUNT_WINDOW"
	}
	return "WINDOW?"
}

// WindowCall is a group window function in GROUP BY, e.g.
// TUMBLE(ts, INTERVAL '1' MINUTE). Args are as written: the time attribute
// first, then the interval arguments in Flink's order (HOP: slide, size).
// COUNT_WINDOW(n [, slide]) has no time attribute: its Args are one or two
// integer literals, checked by Parse (see CountSizes).
type WindowCall struct {
	At   Pos
	Kind WindowKind
	Args []Expr
}

// WindowProp names what an auxiliary window function returns.
type WindowProp int

const (
	WindowStart WindowProp = iota + 1
	WindowEnd
	WindowRowtime
	WindowProctime
)

func (p WindowProp) String() string {
	switch p {
	case WindowStart:
		return "START"
	case WindowEnd:
		return "END"
	case WindowRowtime:
		return "ROWTIME"
	case WindowProctime:
		return "PROCTIME"
	}
	return "PROP?"
}

// WindowAux is an auxiliary group window function in the select list or
// HAVING, e.g. TUMBLE_START(ts, INTERVAL '1' MINUTE). Its Args must repeat
// the GROUP BY window's arguments; the planner checks that.
type WindowAux struct {
	At   Pos
	Kind WindowKind
	Prop WindowProp
	Args []Expr
}

// In is `x [NOT] IN (a, b, ...)`.
type In struct {
	At   Pos
	X    Expr
	List []Expr
	Not  bool
}

// Between is `x [NOT] BETWEEN lo AND hi` (inclusive).
type Between struct {
	At     Pos
	X      Expr
	Lo, Hi Expr
	Not    bool
	// Symmetric: BETWEEN SYMMETRIC, lo and hi in either order.
	Symmetric bool
}

// Like is `x [NOT] LIKE pattern [ESCAPE 'c']`.
type Like struct {
	At      Pos
	X       Expr
	Pattern Expr
	Escape  Expr // nil when absent
	Not     bool
	// Similar: SIMILAR TO, the pattern a SQL regular expression.
	Similar bool
}

// Case is CASE [operand] WHEN ... THEN ... [ELSE ...] END. Operand is nil
// for the searched form (WHEN conditions).
type Case struct {
	At      Pos
	Operand Expr
	Whens   []When
	Else    Expr // nil when absent
}

// When is one WHEN ... THEN ... arm of a Case.
type When struct {
	Cond Expr
	// More are the further values of a WHEN of the simple form: CASE x
	// WHEN a, b THEN ... (Cond is a).
	More   []Expr
	Result Expr
}

// Extract is EXTRACT(unit FROM x); Unit is upper case (YEAR, QUARTER,
// MONTH, WEEK, DAY, DOY, DOW, HOUR, MINUTE, SECOND, MILLISECOND, EPOCH...).
type Extract struct {
	At   Pos
	Unit string
	X    Expr
}

// Trim is TRIM([BOTH|LEADING|TRAILING] [chars] FROM x) and TRIM(x); Mode
// is upper case, BOTH when not written; Chars is nil for blanks.
type Trim struct {
	At    Pos
	Mode  string
	Chars Expr
	X     Expr
}

func (e *In) Pos() Pos      { return e.At }
func (e *Between) Pos() Pos { return e.At }
func (e *Like) Pos() Pos    { return e.At }
func (e *Case) Pos() Pos    { return e.At }
func (e *Extract) Pos() Pos { return e.At }
func (e *Trim) Pos() Pos    { return e.At }
func (*In) expr()           {}
func (*Between) expr()      {}
func (*Like) expr()         {}
func (*Case) expr()         {}
func (*Extract) expr()      {}
func (*Trim) expr()         {}

func (e *ColumnRef) Pos() Pos       { return e.At }
func (e *Literal) Pos() Pos         { return e.At }
func (e *IntervalLiteral) Pos() Pos { return e.At }
func (e *Unary) Pos() Pos           { return e.At }
func (e *Binary) Pos() Pos          { return e.At }
func (e *IsNull) Pos() Pos          { return e.At }
func (e *Cast) Pos() Pos            { return e.At }
func (e *FuncCall) Pos() Pos        { return e.At }
func (e *WindowCall) Pos() Pos      { return e.At }
func (e *WindowAux) Pos() Pos       { return e.At }

func (*ColumnRef) expr()       {}
func (*Literal) expr()         {}
func (*IntervalLiteral) expr() {}
func (*Unary) expr()           {}
func (*Binary) expr()          {}
func (*IsNull) expr()          {}
func (*Cast) expr()            {}
func (*FuncCall) expr()        {}
func (*WindowCall) expr()      {}
func (*WindowAux) expr()       {}
