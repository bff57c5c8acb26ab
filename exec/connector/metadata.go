package connector

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/sql"
)

// MetadataKey is one key a connector offers to METADATA columns, as
// Flink's connectors document theirs ("Available Metadata"): the key, its
// type, and what it holds. Metadata is read only in wsql: no sink writes it.
type MetadataKey struct {
	Key         string
	SQLType     string // as Flink prints it, e.g. TIMESTAMP_LTZ(3)
	Type        arrow.DataType
	Description string
}

// CheckMetadata checks the METADATA columns of table t against the keys
// connector c offers: a key it does not have, or a column of another type
// than the key's, is an error at the column.
func CheckMetadata(t *catalog.Table, c *Connector) error {
	for _, col := range t.Columns {
		if col.Metadata == "" {
			continue
		}
		if len(c.Metadata) == 0 {
			return sql.Errorf(sql.ErrInvalid, col.At, "connector '%s' has no metadata, so column %s cannot be METADATA", c.Name, col.Name)
		}
		k, ok := c.metadataKey(col.Metadata)
		if !ok {
			return sql.Errorf(sql.ErrInvalid, col.At, "connector '%s' has no metadata key '%s'; the available keys are %s",
				c.Name, col.Metadata, strings.Join(c.metadataKeys(), ", "))
		}
		if !arrow.TypeEqual(col.Type, k.Type) {
			return sql.Errorf(sql.ErrInvalid, col.At, "metadata key '%s' of connector '%s' is %s, but column %s is %s; declare the column %s",
				k.Key, c.Name, k.SQLType, col.Name, col.SQLType, k.SQLType)
		}
	}
	return nil
}

func (c *Connector) metadataKey(key string) (MetadataKey, bool) {
	for _, k := range c.Metadata {
		if k.Key == key {
			return k, true
		}
	}
	return MetadataKey{}, false
}

func (c *Connector) metadataKeys() []string {
	var keys []string
	for _, k := range c.Metadata {
		keys = append(keys, "'"+k.Key+"'")
	}
	return keys
}

// PlanSource plans a read of table t by c (NewSource) once its METADATA
// columns are checked against c's keys.
func (c *Connector) PlanSource(t *catalog.Table, conn sql.Option, env *Env) (exec.Source, error) {
	if err := CheckMetadata(t, c); err != nil {
		return nil, err
	}
	return c.NewSource(t, conn, env)
}

// PlanSink plans a write of table t by c (NewSink), refusing a table with
// a METADATA column: no connector of wsql writes metadata (Flink's
// filesystem connector has none writable), and a VIRTUAL column is read
// only in Flink too.
func (c *Connector) PlanSink(t *catalog.Table, conn sql.Option) (TableSink, error) {
	for _, col := range t.Columns {
		if col.Metadata != "" {
			return nil, sql.Errorf(sql.ErrInvalid, col.At, "column %s is METADATA (key '%s'), which cannot be written: connector '%s' writes no metadata, so table %s cannot be a sink",
				col.Name, col.Metadata, c.Name, t.Name)
		}
	}
	if len(t.PartitionKeys) > 0 && !c.Partitioned {
		return nil, sql.Errorf(sql.ErrUnsupported, t.PartitionsAt, "table %s is PARTITIONED BY (%s), but connector '%s' does not write partitions (the connectors that do: %s), so table %s cannot be a sink",
			t.Name, strings.Join(t.PartitionKeys, ", "), c.Name, strings.Join(partitionedSinks(), ", "), t.Name)
	}
	return c.NewSink(t, conn)
}

// partitionedSinks are the connectors whose sinks write partitioned
// tables, in sink rank order.
func partitionedSinks() []string {
	var out []string
	for _, c := range ranked(func(c *Connector) int { return c.SinkRank }) {
		if c.Partitioned && c.NewSink != nil {
			out = append(out, "'"+c.Name+"'")
		}
	}
	return out
}
