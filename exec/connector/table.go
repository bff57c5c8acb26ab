package connector

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/sql"
)

// The keys several connectors share.
const (
	// KeyConnector names the connector; every table has it.
	KeyConnector = "connector"
	// KeyFormat names the format of a connector that reads or writes text.
	KeyFormat = "format"
	// KeyIdleTimeout is 'scan.watermark.idle-timeout' (exec.SourceSpec).
	KeyIdleTimeout = "scan.watermark.idle-timeout"
	// KeyMaxFuture bounds how far beyond its split's latest event time a
	// row may lie and still move the watermark (exec.MaxFuture); rows
	// further out are bad rows.
	KeyMaxFuture = "scan.watermark.max-future"
	// KeyLookupCacheTTL is how often a lookup join (FOR SYSTEM_TIME AS OF
	// a PROCTIME() column) looks at its table's files for a change.
	KeyLookupCacheTTL = "lookup.join.cache.ttl"
)

// The option schema entries several connectors share.
var (
	ConnectorOption = Option{Key: KeyConnector, Type: "string", Required: true, Scope: Both,
		Description: "the connector"}
	IdleTimeoutOption = Option{Key: KeyIdleTimeout, Type: "duration", Scope: Source,
		Description: "a split that delivers no rows for this long stops holding the watermark back"}
	MaxFutureOption = Option{Key: KeyMaxFuture, Type: "duration", Scope: Source,
		Description: "rows further than this beyond their split's latest event time are bad rows"}
)

// SourceSchema is the table's physical schema; a physical rowtime column
// is NOT NULL to the decoder: a row without event time is a bad row.
func SourceSchema(t *catalog.Table) *arrow.Schema {
	fields := append([]arrow.Field(nil), t.PhysicalSchema().Fields()...)
	if t.Watermark != nil {
		for i := range fields {
			if fields[i].Name == t.Watermark.Column {
				fields[i].Nullable = false
			}
		}
	}
	return arrow.NewSchema(fields, nil)
}

// MaxFuture reads 'scan.watermark.max-future' of a table: nil when it is
// not set. It needs event time that rows drive: a WATERMARK other than
// SOURCE_WATERMARK().
func MaxFuture(t *catalog.Table) (*exec.MaxFuture, error) {
	o, ok := t.Options.Lookup(KeyMaxFuture)
	if !ok {
		return nil, nil
	}
	d, err := Duration(o)
	if err != nil {
		return nil, err
	}
	if d <= 0 || d%1e6 != 0 {
		return nil, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be a positive duration in whole milliseconds like '1 h' or '10 min', got '%s'", o.Key, o.Value)
	}
	switch {
	case t.Watermark == nil:
		return nil, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' needs event time, but table %s declares no WATERMARK", o.Key, t.Name)
	case t.Watermark.Source:
		return nil, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' bounds the rows that move the watermark, but table %s takes its watermark from the source (SOURCE_WATERMARK())", o.Key, t.Name)
	}
	return &exec.MaxFuture{Bound: d, Table: t.Name, Column: t.Watermark.Column}, nil
}
