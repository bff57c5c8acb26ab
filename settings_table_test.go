package wsql_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql"
	"github.com/wsql/wsql/planner/setting"
)

// SettingSamples are valid values of the settings whose default is not
// one (no default); a new such setting needs a line here.
var settingSamples = map[string]string{
	setting.StateMaxBytes:      "512 mb",
	setting.CheckpointInterval: "10 s",
	setting.DSNBatchSize:       "1024",
	setting.DSNInit:            "schema.sql",
	setting.ResultMode:         "tableau",
}

func settingSample(t *testing.T, s setting.Setting) string {
	t.Helper()
	if v, ok := settingSamples[s.Key]; ok {
		return v
	}
	require.NoError(t, s.Check(s.Default), "'%s': its default is no valid value; add one to settingSamples", s.Key)
	return s.Default
}

// runSet runs script on a new engine and returns its output and notices.
func runSet(t *testing.T, script string) (string, []string, error) {
	t.Helper()
	e := wsql.New()
	defer e.Close()
	var out bytes.Buffer
	var notices []string
	err := e.Run(context.Background(), script, wsql.Output{
		NewWriter: func(r wsql.ResultInfo) (wsql.ResultWriter, error) {
			return wsql.NewCSVWriter(&out, r.Schema, r.Location), nil
		},
		OnNotice: func(n string) { notices = append(notices, n) },
	})
	return out.String(), notices, err
}

// SET and `SET;` follow planner's settings table: every session key takes a
// valid value without a "no effect" warning, a key outside the table or
// taken by a data source name only is warned about, and `SET;` lists
// exactly the defaults.
func TestSetFollowsSettingsTable(t *testing.T) {
	want := "key,value\n"
	for _, s := range setting.All() {
		v := settingSample(t, s)
		_, notices, err := runSet(t, "SET '"+s.Key+"' = '"+v+"';")
		if s.Scope&setting.ScopeSession == 0 {
			require.NoError(t, err, s.Key)
			require.Len(t, notices, 1, "SET '%s', a key of the data source name only", s.Key)
			require.Contains(t, notices[0], "has no effect in wsql yet")
			continue
		}
		require.NoError(t, err, "SET '%s' = '%s'", s.Key, v)
		require.Empty(t, notices, "SET '%s'", s.Key)
		if s.Default != "" {
			want += s.Key + "," + s.Default + "\n"
		}
	}
	_, notices, err := runSet(t, "SET 'table.local-time-zon' = 'UTC';")
	require.NoError(t, err)
	require.Len(t, notices, 1)
	require.Contains(t, notices[0], "'table.local-time-zon' has no effect in wsql yet")
	require.Contains(t, notices[0], "did you mean")
	require.Contains(t, notices[0], "table.local-time-zone")

	got, _, err := runSet(t, "SET;")
	require.NoError(t, err)
	require.Equal(t, want, got)

	for _, s := range setting.All() {
		if s.Scope&setting.ScopeSession == 0 || s.Check("no such value") == nil {
			continue
		}
		_, _, err := runSet(t, "SET '"+s.Key+"' = 'no such value';")
		require.Error(t, err, "SET '%s' takes a value its check refuses", s.Key)
		require.True(t, strings.Contains(err.Error(), s.Key), "the error of SET '%s' names it: %v", s.Key, err)
	}
}
