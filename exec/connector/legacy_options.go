package connector

import (
	"strings"

	"github.com/wsql/wsql/sql"
)

// FromLegacyOptions reads the options of a table declared with Flink's
// legacy keys ('connector.type', 'connector.path', 'format.type', as Flink
// 1.10 to 1.13 read them) as the current ones, each at the position of the
// key it replaces; the connector of 'connector.type' lists the keys it
// reads (Connector.LegacyKeys). Nexmark's q13 declares its side input so.
// Options with a 'connector' key are returned as they are. A connector
// without legacy keys, or a key its list lacks, is an error at its key.
func FromLegacyOptions(opts []sql.Option) ([]sql.Option, error) {
	var legacy *sql.Option
	for i, o := range opts {
		if o.Key == KeyConnector {
			return opts, nil
		}
		if o.Key == "connector.type" {
			legacy = &opts[i]
		}
	}
	if legacy == nil {
		return opts, nil
	}
	c, ok := Lookup(legacy.Value)
	if !ok || c.LegacyKeys == nil {
		return nil, sql.Errorf(sql.ErrUnsupported, legacy.At, "the legacy 'connector.type' = '%s' is not supported; declare the table with 'connector' = '%s' and Flink's current options", legacy.Value, legacy.Value)
	}
	out := make([]sql.Option, 0, len(opts))
	for _, o := range opts {
		key, known := c.LegacyKeys[o.Key]
		switch {
		case o.Key == "connector.type":
			key = KeyConnector
		case !known:
			return nil, sql.Errorf(sql.ErrUnsupported, o.At, "legacy option '%s' is not supported; declare the table with Flink's current options ('connector' = '%s', ...)", o.Key, c.Name)
		case key == "":
			continue
		}
		o.Key = key
		if c.PathKey != "" && key == c.PathKey {
			o.Value = localPath(o.Value)
		}
		out = append(out, o)
	}
	return out, nil
}

// localPath is a file: URI's path ("file:///data/x" is "/data/x"); other
// paths are returned as they are.
func localPath(p string) string {
	if rest, ok := strings.CutPrefix(p, "file://"); ok {
		return rest
	}
	if rest, ok := strings.CutPrefix(p, "file:"); ok {
		return rest
	}
	return p
}
