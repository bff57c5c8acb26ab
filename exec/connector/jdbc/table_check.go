package jdbc

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/sql"
)

// The PostgreSQL table of a jdbc table is checked when a query that reads
// or writes it is planned to run (connector.Env.Run for a read, the
// sink's CheckRun for a write): it must exist, and each column of the
// table must have a PostgreSQL column of its name and of a type it is
// read from or written to. CREATE TABLE and EXPLAIN need no server. The
// errors are at the table's declaration: the 'table-name' option, or the
// column.

// checkTimeout bounds the check's connection and its catalog query.
const checkTimeout = time.Minute

// readPGColumns reads the columns of PostgreSQL table name, in order.
func readPGColumns(ctx context.Context, conn *pgconn.PgConn, name string) ([]pgColumn, error) {
	const q = `SELECT a.attname, a.atttypid::int8, CASE WHEN t.typcategory = 'A' THEN t.typelem ELSE 0 END::int8, format_type(a.atttypid, a.atttypmod)
FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`
	res := conn.ExecParams(ctx, q, [][]byte{[]byte(name)}, nil, nil, nil).Read()
	if res.Err != nil {
		return nil, res.Err
	}
	var pg []pgColumn
	for _, r := range res.Rows {
		oid, _ := strconv.ParseUint(string(r[1]), 10, 32)
		elem, _ := strconv.ParseUint(string(r[2]), 10, 32)
		pg = append(pg, pgColumn{name: string(r[0]), oid: uint32(oid), elem: uint32(elem), shown: string(r[3])})
	}
	return pg, nil
}

// direction is whether a table is read or written: the types that fit
// differ (a SMALLINT is written to bigint, but read from smallint only).
type direction bool

const (
	reading direction = false
	writing direction = true
)

// pgColumnsOf matches the physical columns phys of table t to the
// PostgreSQL table's columns pg: the PostgreSQL column of each, or an
// error at the column's declaration naming it.
func pgColumnsOf(t *catalog.Table, cfg *config, pg []pgColumn, phys []int, dir direction) ([]pgColumn, error) {
	out := make([]pgColumn, 0, len(phys))
	for _, i := range phys {
		c := t.Columns[i]
		col, ok := findColumn(pg, c.Name)
		if !ok {
			var names []string
			for _, p := range pg {
				names = append(names, p.name)
			}
			return nil, sql.Errorf(sql.ErrInvalid, c.At, "table %s: PostgreSQL table %s has no column %s (its columns: %s)%s",
				t.Name, cfg.table, c.Name, strings.Join(names, ", "), sql.DidYouMean(c.Name, names))
		}
		var err error
		if dir == writing {
			_, err = match(t.Name, cfg.table, c, col)
		} else {
			_, err = readMatch(t.Name, cfg.table, c, col)
		}
		if err != nil {
			return nil, sql.Errorf(sql.ErrInvalid, c.At, "%s", err.Error())
		}
		out = append(out, col)
	}
	return out, nil
}

// checkPGTable connects to the table's database and checks the
// PostgreSQL table against the physical columns phys of t.
func checkPGTable(t *catalog.Table, cfg *config, phys []int, dir direction) error {
	ctx, cancel := context.WithTimeout(context.Background(), checkTimeout)
	defer cancel()
	conn, err := pgconn.ConnectConfig(ctx, cfg.conn)
	if err != nil {
		return cfg.wrap(t.Name, "connecting", err)
	}
	defer conn.Close(context.Background())
	pg, err := readPGColumns(ctx, conn, cfg.table)
	if err != nil {
		return cfg.tableError(t, err)
	}
	_, err = pgColumnsOf(t, cfg, pg, phys, dir)
	return err
}

// tableError is the error of reading the PostgreSQL table's columns: a
// table that does not exist is named at the 'table-name' option.
func (c *config) tableError(t *catalog.Table, err error) error {
	var pg *pgconn.PgError
	if errors.As(err, &pg) && (pg.Code == "42P01" || pg.Code == "3F000") { // undefined table, undefined schema
		if o, ok := t.Options.Lookup(keyTable); ok {
			return sql.Errorf(sql.ErrInvalid, o.At, "table %s: PostgreSQL table %s does not exist: %s", t.Name, c.table, pg.Message)
		}
	}
	return c.wrap(t.Name, "reading the columns", err)
}

// wrap names the table and the database in an error, without the
// password.
func (c *config) wrap(table, what string, err error) error {
	msg := err.Error()
	var pg *pgconn.PgError
	if errors.As(err, &pg) && pg.Detail != "" {
		msg += " (" + pg.Detail + ")"
	}
	return errors.New(redact(fmt.Sprintf("table %s (PostgreSQL table %s at %s): %s: %s", table, c.table, c.shown, what, msg), c.password))
}

// physicalColumns are the indexes of t's columns that are not computed.
func physicalColumns(t *catalog.Table) []int {
	var phys []int
	for i, c := range t.Columns {
		if c.Computed == nil {
			phys = append(phys, i)
		}
	}
	return phys
}

// sources are the PostgreSQL types a column of each Flink type may be
// read from, the first the one it maps to: every value of each fits (a
// SMALLINT is not read from integer), but for TINYINT, read from
// smallint with each value checked.
func sources(t arrow.DataType) []uint32 {
	switch t := t.(type) {
	case *arrow.BooleanType:
		return []uint32{oidBool}
	case *arrow.Int8Type, *arrow.Int16Type:
		return []uint32{oidInt2}
	case *arrow.Int32Type:
		return []uint32{oidInt4, oidInt2}
	case *arrow.Int64Type:
		return []uint32{oidInt8, oidInt4, oidInt2}
	case *arrow.Float32Type:
		return []uint32{oidFloat4}
	case *arrow.Float64Type:
		return []uint32{oidFloat8, oidFloat4}
	case *arrow.Decimal128Type:
		return []uint32{oidNumeric}
	case *arrow.StringType:
		return []uint32{oidText, oidVarchar, oidBpchar, oidJSONB, oidJSON}
	case *arrow.BinaryType:
		return []uint32{oidBytea}
	case *arrow.Date32Type:
		return []uint32{oidDate}
	case *arrow.Time32Type:
		return []uint32{oidTime}
	case *arrow.TimestampType:
		if t.TimeZone != "" {
			return []uint32{oidTimestamptz}
		}
		return []uint32{oidTimestamp}
	}
	return nil
}

// readMatch finds the decoder of a Flink column read from a PostgreSQL
// column: an error naming the column when the types do not fit.
func readMatch(table, pgTable string, c catalog.Column, pg pgColumn) (decoder, error) {
	_, oid, elemOf, err := fit(table, pgTable, c, pg, sources, "read from")
	if err != nil {
		return nil, err
	}
	return newDecoder(c, oid, elemOf), nil
}
