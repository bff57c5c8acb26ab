package connector_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/connector"
	_ "github.com/wsql/wsql/exec/connector/builtin"
	"github.com/wsql/wsql/sql"
)

// TestBuiltinsAreRegistered pins what the blank imports of builtin register
// and the order listings and messages show them in.
func TestBuiltinsAreRegistered(t *testing.T) {
	require.Equal(t, []string{"filesystem", "stdin", "datagen", "kafka", "nexmark", "upsert-kafka", "jdbc", "postgres-cdc"}, connector.SourceNames())
	require.Equal(t, []string{"print", "blackhole", "filesystem", "kafka", "upsert-kafka", "jdbc"}, connector.SinkNames())
	require.ElementsMatch(t, append(connector.SourceNames(), "print", "blackhole", "go"), connector.Names())
	require.Equal(t, []string{"csv", "json", "debezium-json"}, connector.ReadFormats())
	require.Equal(t, []string{"csv", "json", "debezium-json", "parquet"}, connector.WriteFormats())
}

// TestOptionSchemasAreComplete checks every declared option the way the
// docs, completion and "did you mean" read it: a key once per connector or
// format, a type, a description and where it is allowed.
func TestOptionSchemasAreComplete(t *testing.T) {
	check := func(owner string, opts []connector.Option) {
		seen := map[string]bool{}
		for _, o := range opts {
			require.NotEmptyf(t, o.Key, "%s: an option without a key", owner)
			require.Falsef(t, seen[o.Key], "%s: option %s declared twice", owner, o.Key)
			seen[o.Key] = true
			require.NotEmptyf(t, o.Type, "%s: option %s has no type", owner, o.Key)
			require.NotEmptyf(t, o.Description, "%s: option %s has no description", owner, o.Key)
			require.NotZerof(t, o.Scope, "%s: option %s is allowed nowhere", owner, o.Key)
			require.Falsef(t, o.Required && o.Default != "", "%s: option %s is required and has a default", owner, o.Key)
		}
	}
	for _, name := range connector.Names() {
		c, ok := connector.Lookup(name)
		require.True(t, ok)
		check("connector "+name, c.Options)
		require.Equal(t, c.Options, connector.Options(name))
	}
	for _, f := range connector.Formats() {
		check("format "+f.Name, f.Options)
		require.Equal(t, f.Reads, f.Decoding != nil, "format %s: Reads and Decoding disagree", f.Name)
		require.Equal(t, f.Writes, f.Writing != nil, "format %s: Writes and Writing disagree", f.Name)
	}
	require.Nil(t, connector.Options("no-such-connector"))
}

// TestUnknownConnectorSuggestsARegisteredOne: the lookup's error lists what
// can be read or written and suggests the nearest name.
func TestUnknownConnectorSuggestsARegisteredOne(t *testing.T) {
	_, err := connector.SourceConnector(sql.Option{Key: "connector", Value: "filesytem"})
	require.ErrorContains(t, err, "connector 'filesytem' is not supported yet (supported: filesystem, stdin, datagen, kafka, nexmark, upsert-kafka, jdbc, postgres-cdc); did you mean filesystem?")

	_, err = connector.SourceConnector(sql.Option{Key: "connector", Value: "go"})
	require.Error(t, err, "the go connector is attached from Go, never named in SQL")

	_, err = connector.SinkConnector(sql.Option{Key: "connector", Value: "datagen"})
	require.ErrorContains(t, err, "writing to connector 'datagen' is not supported yet (supported: print, blackhole, filesystem, kafka, upsert-kafka, jdbc)")

	_, err = connector.SourceConnector(sql.Option{Key: "connector", Value: "print", At: sql.Pos{Line: 3, Col: 9}})
	require.ErrorContains(t, err, "reading a table of connector 'print' is not supported yet: it can only be written, with INSERT INTO (connectors read: filesystem, stdin, datagen, kafka, nexmark, upsert-kafka, jdbc, postgres-cdc)")
	var serr *sql.Error
	require.ErrorAs(t, err, &serr)
	require.Equal(t, sql.Pos{Line: 3, Col: 9}, serr.Pos)

	c, err := connector.SinkConnector(sql.Option{Key: "connector", Value: "print"})
	require.NoError(t, err)
	require.Equal(t, "print", c.Name)
}

// TestRegisteringANameTwicePanics, as database/sql's Register does: two
// packages claiming one identifier is a programming error.
func TestRegisteringANameTwicePanics(t *testing.T) {
	require.Panics(t, func() { connector.Register(&connector.Connector{Name: "datagen"}) })
	require.Panics(t, func() { connector.RegisterFormat(&connector.Format{Name: "csv"}) })
}
