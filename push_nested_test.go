package wsql_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
)

type pushedUser struct {
	ID      int64 `wsql:"id"`
	Country *string
}

type pushedClick struct {
	User  pushedUser
	Tags  []string
	Attrs map[string]int
	Seen  []string
}

// A push table takes nested Go values, the shapes Rows.Scan gives back: a
// ROW as map[string]any or a struct, an ARRAY as a slice, a MAP as a map,
// a MULTISET as a map of counts or a slice of its elements; and they come
// back out of a query as they went in.
func TestPushTableTakesNestedGoValues(t *testing.T) {
	mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
	ctx := context.Background()
	e := wsql.New(wsql.WithAllocator(mem))
	defer func() {
		require.NoError(t, e.Close())
		mem.AssertSize(t, 0)
	}()
	pushed, err := e.CreatePushTable(ctx, "CREATE TABLE clicks (`user` ROW<id BIGINT, country STRING>, tags ARRAY<STRING>, "+
		"attrs MAP<STRING, INT>, seen MULTISET<STRING>)")
	require.NoError(t, err)
	nl := "NL"
	require.NoError(t, pushed.AppendRow(ctx, map[string]any{"id": 1, "country": "NL"}, []string{"a", "b"},
		map[string]int{"y": 2, "x": 1}, map[string]int{"home": 2}))
	require.NoError(t, pushed.AppendRow(ctx, pushedUser{ID: 2}, []any{"c", nil}, map[string]any{"x": nil}, []string{"a", "b", "a"}))
	require.NoError(t, pushed.AppendStruct(ctx, pushedClick{User: pushedUser{ID: 3, Country: &nl}, Tags: []string{}}))
	require.NoError(t, pushed.AppendRow(ctx, nil, nil, nil, nil))
	require.EqualError(t, pushed.AppendRow(ctx, map[string]any{"id": 1, "city": "x"}, nil, nil, nil),
		"wsql: pushing to table clicks: column user is ROW<`id` BIGINT, `country` STRING>, which has no field city")
	require.EqualError(t, pushed.AppendRow(ctx, nil, []int{1}, nil, nil),
		"wsql: pushing to table clicks: column tags[1] is STRING and cannot take the Go value 1 (int)")
	require.EqualError(t, pushed.AppendRow(ctx, nil, nil, map[string]string{"x": "1"}, nil),
		"wsql: pushing to table clicks: column attrs[x] is INT and cannot take the Go value 1 (string)")
	require.EqualError(t, pushed.AppendRow(ctx, nil, nil, nil, map[string]int{"a": 0}),
		"wsql: pushing to table clicks: column seen is MULTISET<STRING> and the count of a is 0; a MULTISET counts each element at least once")
	require.EqualError(t, pushed.AppendRow(ctx, "x", nil, nil, nil),
		"wsql: pushing to table clicks: column user is ROW<`id` BIGINT, `country` STRING> and cannot take the Go value x (string)")
	require.NoError(t, pushed.Close())

	rows, err := e.Query(ctx, "SELECT `user`, tags, attrs, seen FROM clicks")
	require.NoError(t, err)
	defer rows.Close()
	var got []string
	for rows.NextRow() {
		var user, tags, attrs, seen any
		require.NoError(t, rows.Scan(&user, &tags, &attrs, &seen))
		got = append(got, fmtAny(user, tags, attrs, seen))
	}
	require.NoError(t, rows.Err())
	require.Equal(t, []string{
		"map[country:NL id:1] [a b] map[x:1 y:2] map[home:2]",
		"map[country:<nil> id:2] [c <nil>] map[x:<nil>] map[a:2 b:1]",
		"map[country:NL id:3] [] <nil> <nil>",
		"<nil> <nil> <nil> <nil>",
	}, got)
}

func fmtAny(vs ...any) string {
	s := fmt.Sprint(vs...)
	return s
}
