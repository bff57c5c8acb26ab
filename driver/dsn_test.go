package driver

import (
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/planner/setting"
)

// dsnSamples are valid values of the DSN keys whose default is not one.
var dsnSamples = map[string]string{
	setting.StateMaxBytes:      "512 mb",
	setting.CheckpointInterval: "10 s",
	setting.DSNBatchSize:       "1024",
	setting.DSNInit:            "schema.sql",
}

// The data source name follows planner's settings table: it takes every
// key of ScopeDSN, checked by the table, hands the session keys to SET,
// and names exactly those keys when refusing another.
func TestDSNFollowsSettingsTable(t *testing.T) {
	var session []string
	for _, s := range setting.All() {
		if s.Scope&setting.ScopeDSN == 0 {
			_, err := parseDSN(url.Values{s.Key: {"x"}}.Encode())
			require.ErrorContains(t, err, "unknown DSN key", s.Key)
			continue
		}
		v, ok := dsnSamples[s.Key]
		if !ok {
			require.NoError(t, s.Check(s.Default), "'%s': its default is no valid value; add one to dsnSamples", s.Key)
			v = s.Default
		}
		cfg, err := parseDSN(url.Values{s.Key: {v}}.Encode())
		require.NoError(t, err, "%s=%s", s.Key, v)
		if s.Scope&setting.ScopeSession != 0 {
			require.Equal(t, [][2]string{{s.Key, v}}, cfg.settings, s.Key)
			session = append(session, s.Key)
		}
		if s.Check("no such value") != nil {
			_, err := parseDSN(url.Values{s.Key: {"no such value"}}.Encode())
			require.ErrorContains(t, err, "wsql: DSN key "+s.Key+": ", "a value its check refuses")
		}
	}
	require.NotEmpty(t, session)
	_, err := parseDSN("no.such.key=1")
	require.EqualError(t, err, `wsql: unknown DSN key "no.such.key": the keys are `+strings.Join(setting.Keys(setting.ScopeDSN), ", "))
}
