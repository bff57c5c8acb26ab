package jdbc

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/sql"
)

// The keys of a read, as Flink's JDBC connector names them.
const (
	keyPartitionColumn = "scan.partition.column"
	keyPartitionNum    = "scan.partition.num"
	keyLowerBound      = "scan.partition.lower-bound"
	keyUpperBound      = "scan.partition.upper-bound"
	keyFetchSize       = "scan.fetch-size"
	keyAutoCommit      = "scan.auto-commit"
)

// scanOptions are the option schema entries of a read; options.go lists
// them with the others.
var scanOptions = []connector.Option{
	{Key: keyPartitionColumn, Type: "string", Scope: connector.Source,
		Description: "the column whose ranges are read in parallel: a numeric, DATE or TIMESTAMP column; with the other three scan.partition keys"},
	{Key: keyPartitionNum, Type: "int", Scope: connector.Source,
		Description: "the number of ranges of 'scan.partition.column', each read by a query of its own"},
	{Key: keyLowerBound, Type: "int, date or timestamp", Scope: connector.Source,
		Description: "the smallest value of the first range; rows below it are not read, as in Flink"},
	{Key: keyUpperBound, Type: "int, date or timestamp", Scope: connector.Source,
		Description: "the largest value of the last range; rows above it are not read, as in Flink"},
	{Key: keyFetchSize, Type: "int", Default: "0", Scope: connector.Source,
		Description: "the rows fetched a round trip through a cursor; 0: the whole result streamed by one query"},
	{Key: keyAutoCommit, Type: "bool", Default: "true", Scope: connector.Source,
		Description: "Flink's JDBC auto-commit flag; a read is always one read-only transaction a connection, so it changes nothing"},
}

// scanConfig is how a table is read.
type scanConfig struct {
	partition *partitioning // nil: one query reads the whole table
	fetchSize int           // rows a FETCH; 0: no cursor
}

// partitioning is a read split into ranges of one column's values.
type partitioning struct {
	column string // the table's column
	col    int    // its index in the table's columns
	kind   boundKind
	lower  int64 // the bounds, as kind's integers
	upper  int64
	num    int64 // as the option asks; ranges may be fewer
	ranges []valueRange
	// the options as written, for EXPLAIN
	lowerText, upperText string
}

// boundKind is how the values of a partition column are integers.
type boundKind uint8

const (
	boundNumber    boundKind = iota // the value itself
	boundDate                       // days since 1970-01-01
	boundTimestamp                  // microseconds since 1970-01-01 00:00:00, PostgreSQL's precision
)

// valueRange is the values lo..hi of a range, both included.
type valueRange struct{ lo, hi int64 }

// readScan reads the scan options of table t: all four scan.partition
// keys or none, the column a physical one of a numeric, DATE or TIMESTAMP
// type, the bounds of its type with the lower at most the upper.
func readScan(t *catalog.Table) (*scanConfig, error) {
	sc := &scanConfig{}
	var part [4]*sql.Option
	keys := [4]string{keyPartitionColumn, keyPartitionNum, keyLowerBound, keyUpperBound}
	for i, o := range t.Options {
		switch o.Key {
		case keyFetchSize:
			n, err := connector.NonNegativeInt(o)
			if err != nil {
				return nil, err
			}
			if n > 1<<30 {
				return nil, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be at most %d, got '%s'", o.Key, 1<<30, o.Value)
			}
			sc.fetchSize = int(n)
		case keyAutoCommit:
			if _, err := connector.Bool(o); err != nil {
				return nil, err
			}
		default:
			for k, key := range keys {
				if o.Key == key {
					part[k] = &t.Options[i]
				}
			}
		}
	}
	var set, missing []string
	var first *sql.Option
	for k, o := range part {
		if o == nil {
			missing = append(missing, "'"+keys[k]+"'")
			continue
		}
		set = append(set, "'"+keys[k]+"'")
		if first == nil {
			first = o
		}
	}
	if len(set) == 0 {
		return sc, nil
	}
	if len(missing) > 0 {
		return nil, sql.Errorf(sql.ErrInvalid, first.At, "table %s sets %s but not %s: a partitioned read needs all four of 'scan.partition.column', 'scan.partition.num', 'scan.partition.lower-bound' and 'scan.partition.upper-bound'",
			t.Name, strings.Join(set, ", "), strings.Join(missing, ", "))
	}
	p, err := readPartitioning(t, *part[0], *part[1], *part[2], *part[3])
	if err != nil {
		return nil, err
	}
	sc.partition = p
	return sc, nil
}

func readPartitioning(t *catalog.Table, column, num, lower, upper sql.Option) (*partitioning, error) {
	p := &partitioning{column: strings.TrimSpace(column.Value), lowerText: strings.TrimSpace(lower.Value), upperText: strings.TrimSpace(upper.Value)}
	p.col = t.Column(p.column)
	if p.col < 0 {
		return nil, sql.Errorf(sql.ErrInvalid, column.At, "option '%s' names column %s, which table %s does not have (its columns: %s)%s",
			column.Key, p.column, t.Name, strings.Join(t.ColumnNames(), ", "), sql.DidYouMean(p.column, t.ColumnNames()))
	}
	c := t.Columns[p.col]
	if c.Computed != nil || c.Metadata != "" {
		return nil, sql.Errorf(sql.ErrInvalid, column.At, "option '%s' names column %s, which is computed; the ranges are of a column PostgreSQL's table has", column.Key, p.column)
	}
	switch tt := c.Type.(type) {
	case *arrow.Int8Type, *arrow.Int16Type, *arrow.Int32Type, *arrow.Int64Type, *arrow.Decimal128Type, *arrow.Float32Type, *arrow.Float64Type:
		p.kind = boundNumber
	case *arrow.Date32Type:
		p.kind = boundDate
	case *arrow.TimestampType:
		if tt.TimeZone != "" {
			return nil, sql.Errorf(sql.ErrUnsupported, column.At, "option '%s' names column %s, which is %s; a partition column of TIMESTAMP_LTZ is not supported yet: partition by a numeric, DATE or TIMESTAMP column", column.Key, p.column, c.SQLType)
		}
		p.kind = boundTimestamp
	default:
		return nil, sql.Errorf(sql.ErrInvalid, column.At, "option '%s' names column %s, which is %s; the partition column must be numeric, DATE or TIMESTAMP, as in Flink", column.Key, p.column, c.SQLType)
	}
	n, err := connector.Int(num)
	if err != nil {
		return nil, err
	}
	if n < 1 {
		return nil, sql.Errorf(sql.ErrInvalid, num.At, "option '%s' must be at least 1, got '%s'", num.Key, num.Value)
	}
	p.num = n
	if p.lower, err = p.bound(lower, c); err != nil {
		return nil, err
	}
	if p.upper, err = p.bound(upper, c); err != nil {
		return nil, err
	}
	if p.lower > p.upper {
		return nil, sql.Errorf(sql.ErrInvalid, lower.At, "option '%s' (%s) is above option '%s' (%s): the lower bound must be at most the upper", lower.Key, lower.Value, upper.Key, upper.Value)
	}
	p.ranges = splitRanges(p.lower, p.upper, n)
	return p, nil
}

// bound reads a bound of the partition column c: an integer of a numeric
// column, a date of a DATE column, a timestamp of a TIMESTAMP column.
func (p *partitioning) bound(o sql.Option, c catalog.Column) (int64, error) {
	v := strings.TrimSpace(o.Value)
	switch p.kind {
	case boundDate:
		d, err := time.Parse("2006-01-02", v)
		if err != nil {
			return 0, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be a date like '2024-01-31' for the DATE column %s, got '%s'", o.Key, c.Name, o.Value)
		}
		return d.Unix() / 86400, nil
	case boundTimestamp:
		for _, layout := range []string{"2006-01-02 15:04:05.999999", "2006-01-02T15:04:05.999999", "2006-01-02"} {
			if ts, err := time.Parse(layout, v); err == nil {
				return ts.UnixMicro(), nil
			}
		}
		return 0, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be a timestamp like '2024-01-31 00:00:00' for the %s column %s, got '%s'", o.Key, c.SQLType, c.Name, o.Value)
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be an integer for the %s column %s, got '%s'", o.Key, c.SQLType, c.Name, o.Value)
	}
	return n, nil
}

// splitRanges splits lower..upper (both included) into num ranges as
// Flink's JdbcNumericBetweenParametersProvider does: each range holds
// ceil(count/num) values, the last ones one fewer, so the sizes differ by
// at most one; never more ranges than values.
func splitRanges(lower, upper, num int64) []valueRange {
	count := new(big.Int).Sub(big.NewInt(upper), big.NewInt(lower))
	count.Add(count, big.NewInt(1))
	if count.Cmp(big.NewInt(num)) < 0 {
		num = count.Int64()
	}
	nb := big.NewInt(num)
	size := new(big.Int).Add(count, new(big.Int).Sub(nb, big.NewInt(1)))
	size.Quo(size, nb) // ceil(count / num)
	// the first big ranges hold size values, the others size-1
	big1 := new(big.Int).Sub(count, new(big.Int).Mul(new(big.Int).Sub(size, big.NewInt(1)), nb)).Int64()
	out := make([]valueRange, 0, num)
	start := big.NewInt(lower)
	for i := range num {
		end := new(big.Int).Add(start, size)
		end.Sub(end, big.NewInt(1))
		if i >= big1 {
			end.Sub(end, big.NewInt(1))
		}
		out = append(out, valueRange{lo: start.Int64(), hi: end.Int64()})
		start = end.Add(end, big.NewInt(1))
	}
	return out
}

// literal is the SQL text of value v of the partition column.
func (p *partitioning) literal(v int64) string {
	switch p.kind {
	case boundDate:
		return "'" + time.Unix(v*86400, 0).UTC().Format("2006-01-02") + "'"
	case boundTimestamp:
		return "'" + time.UnixMicro(v).UTC().Format("2006-01-02 15:04:05.999999") + "'"
	}
	return strconv.FormatInt(v, 10)
}

// where is the condition of range i on the PostgreSQL column col
// (quoted): col BETWEEN lo AND hi, as Flink's query has it, written as
// col >= lo AND col < next range's lo so a DECIMAL, DOUBLE or a fraction
// of a second between two ranges' integers falls in one of them; the
// last range ends at the upper bound, included.
func (p *partitioning) where(i int, col string) string {
	r := p.ranges[i]
	if i == len(p.ranges)-1 {
		return fmt.Sprintf("%s >= %s AND %s <= %s", col, p.literal(r.lo), col, p.literal(r.hi))
	}
	return fmt.Sprintf("%s >= %s AND %s < %s", col, p.literal(r.lo), col, p.literal(p.ranges[i+1].lo))
}
