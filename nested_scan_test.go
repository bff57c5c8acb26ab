package wsql_test

import (
	"context"
	"database/sql"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
	_ "github.com/wsql/wsql/driver"
)

const nestedScanDDL = "CREATE TABLE clicks (ts TIMESTAMP(3), `user` ROW<id BIGINT NOT NULL, name STRING, country STRING>, " +
	"items ARRAY<ROW<sku STRING, qty INT>>, tags ARRAY<STRING>, attrs MAP<STRING, INT>, seen MULTISET<STRING>) " +
	"WITH ('connector' = 'filesystem', 'path' = 'testdata/e2e/clicks_nested.jsonl', 'format' = 'json')"

type scanUser struct {
	ID      int64
	Name    *string
	Country string `wsql:"country"`
}

type scanItem struct {
	SKU *string `wsql:"sku"`
	Qty *int
}

// Rows.Scan reads nested columns into Go values: a ROW into a struct by
// field name or map[string]any, an ARRAY into a typed slice or []any, a
// MAP or MULTISET into a typed map; NULL at any depth into a pointer.
func TestRowsScanNestedTypes(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	ctx := context.Background()
	e := wsql.New(wsql.WithAllocator(mem))
	defer func() {
		require.NoError(t, e.Close())
		mem.AssertSize(t, 0)
	}()
	require.NoError(t, e.Exec(ctx, nestedScanDDL))
	rows, err := e.Query(ctx, "SELECT `user`, items, tags, attrs, seen, `user` AS u2, items AS i2, `user` AS u3 FROM clicks")
	require.NoError(t, err)
	defer rows.Close()

	require.True(t, rows.NextRow())
	var (
		user  scanUser
		items []scanItem
		tags  []string
		attrs map[string]int
		seen  map[string]int64
		u2    any
		i2    []any
		u3    string
	)
	require.NoError(t, rows.Scan(&user, &items, &tags, &attrs, &seen, &u2, &i2, &u3))
	ann, a1, b7, two := "ann", "a1", "b7", 2
	require.Equal(t, scanUser{ID: 1, Name: &ann, Country: "NL"}, user)
	require.Equal(t, []scanItem{{SKU: &a1, Qty: &two}, {SKU: &b7}}, items)
	require.Equal(t, []string{"new", "mobile"}, tags)
	require.Equal(t, map[string]int{"ref": 3, "ab": 1}, attrs)
	require.Equal(t, map[string]int64{"home": 2, "cart": 1}, seen)
	require.Equal(t, map[string]any{"id": int64(1), "name": "ann", "country": "NL"}, u2)
	require.Equal(t, []any{map[string]any{"sku": "a1", "qty": int64(2)}, map[string]any{"sku": "b7", "qty": nil}}, i2)
	require.Equal(t, "(1, ann, NL)", u3, "a string takes Flink's text")

	require.True(t, rows.NextRow())
	var userP *scanUser
	var tagsP *[]string
	require.NoError(t, rows.Scan(&userP, &items, &tagsP, &attrs, &seen, &u2, &i2, &u3))
	require.Equal(t, &scanUser{ID: 2, Country: "DE"}, userP)
	require.Empty(t, items)
	require.Nil(t, tagsP)
	require.Equal(t, map[string]int{}, attrs)
	require.Nil(t, seen, "NULL is a nil map")

	require.True(t, rows.NextRow())
	var tagsAny []*string
	err = rows.Scan(&user, &items, &tagsAny, &attrs, &seen, &u2, &i2, &u3)
	require.ErrorContains(t, err, `column "user" (ROW<`+"`id` BIGINT NOT NULL, `name` STRING, `country` STRING>) is NULL in this row")

	type wrongUser struct{ ID int64 }
	require.True(t, rows.NextRow())
	var wu wrongUser
	err = rows.Scan(&wu, &items, &tagsAny, &attrs, &seen, &u2, &i2, &u3)
	require.ErrorContains(t, err, `struct wsql_test.wrongUser has no field for "country"`)
}

// The database/sql driver gives a ROW as map[string]any, an ARRAY as []any
// and a MAP or MULTISET as map[string]any, and says so in the column's
// scan type.
func TestDriverNestedTypes(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("wsql", "")
	require.NoError(t, err)
	defer db.Close()
	conn, err := db.Conn(ctx)
	require.NoError(t, err)
	defer conn.Close()
	_, err = conn.ExecContext(ctx, nestedScanDDL)
	require.NoError(t, err)
	rows, err := conn.QueryContext(ctx, "SELECT `user`, items, attrs, seen FROM clicks")
	require.NoError(t, err)
	defer rows.Close()
	types, err := rows.ColumnTypes()
	require.NoError(t, err)
	var scanTypes, names []string
	for _, ct := range types {
		scanTypes = append(scanTypes, ct.ScanType().String())
		names = append(names, ct.DatabaseTypeName())
	}
	require.Equal(t, []string{"map[string]interface {}", "[]interface {}", "map[string]interface {}", "map[string]interface {}"}, scanTypes)
	require.Equal(t, []string{"ROW<`id` BIGINT NOT NULL, `name` STRING, `country` STRING>", "ARRAY<ROW<`sku` STRING, `qty` INT>>", "MAP<STRING, INT>", "MULTISET<STRING>"}, names)
	require.True(t, rows.Next())
	var user, items, attrs, seen any
	require.NoError(t, rows.Scan(&user, &items, &attrs, &seen))
	require.Equal(t, map[string]any{"id": int64(1), "name": "ann", "country": "NL"}, user)
	require.Equal(t, []any{map[string]any{"sku": "a1", "qty": int64(2)}, map[string]any{"sku": "b7", "qty": nil}}, items)
	require.Equal(t, map[string]any{"ref": int64(3), "ab": int64(1)}, attrs)
	require.Equal(t, map[string]any{"home": int64(2), "cart": int64(1)}, seen)
	require.True(t, rows.Next())
	require.NoError(t, rows.Scan(&user, &items, &attrs, &seen))
	require.Nil(t, seen)
}
