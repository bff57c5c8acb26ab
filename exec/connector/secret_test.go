package connector_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec/connector"
)

func TestShownValueHidesPasswords(t *testing.T) {
	for _, c := range []struct{ key, value, shown string }{
		{"password", "hunter2", "******"},
		{"avro-confluent.ssl.keystore.password", "x", "******"},
		{"url", "jdbc:postgresql://h:5432/db?user=ann&password=hunter2&ssl=true", "jdbc:postgresql://h:5432/db?user=ann&password=******&ssl=true"},
		{"url", "postgres://ann:hunter2@h/db", "postgres://ann:******@h/db"},
		{"url", "host=h password=hunter2 dbname=db", "host=h password=****** dbname=db"},
		{"url", "jdbc:postgresql://h/db", "jdbc:postgresql://h/db"},
		{"topic", "password-changes", "password-changes"},
	} {
		require.Equal(t, c.shown, connector.ShownValue(c.key, c.value), c.value)
	}
}
