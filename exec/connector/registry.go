package connector

import (
	"sort"
	"strings"
	"sync"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/exec/lookup"
	"github.com/wsql/wsql/sql"
)

// Connector is a connector's declaration: what 'connector' = Name reads
// or writes, and with which options.
type Connector struct {
	Name string
	// Rank orders the connectors in messages and listings (lower first),
	// whatever order their packages register in; SinkRank orders those an
	// INSERT writes to.
	Rank, SinkRank int
	// Options is the schema of the connector's WITH keys.
	Options []Option
	// PathKey is the option naming the files the connector reads and
	// writes ("path"), checked against the outputs of a script before it
	// runs; "" for a connector that reads no files.
	PathKey string
	// Metadata are the keys a METADATA column of the connector's tables
	// may read (see MetadataKey); none for a connector without metadata.
	Metadata []MetadataKey
	// Partitioned is set when the connector's sinks take a table with
	// PARTITIONED BY, as Flink's sinks implementing SupportsPartitioning.
	Partitioned bool
	// NewSource plans a read of table t; nil when the connector cannot be
	// read. conn is the table's 'connector' option, for positions.
	NewSource func(t *catalog.Table, conn sql.Option, env *Env) (exec.Source, error)
	// NewSink plans a write of table t; nil when the connector cannot be
	// written.
	NewSink func(t *catalog.Table, conn sql.Option) (TableSink, error)
	// LookupFiles, when set, says that a table of the connector can be the
	// table of a lookup join (FOR SYSTEM_TIME AS OF a PROCTIME() column),
	// read whole: it returns the files to watch for a change, or why the
	// table cannot be read whole.
	LookupFiles func(t *catalog.Table) (path string, err error)
	// NewLookup, when set, says that a table of the connector can be the
	// table of a lookup join queried by key, as Flink's LookupTableSource:
	// keys are the names of the table's columns the join's ON equates, in
	// order; it returns how to query them and the cache the join keeps, or
	// a positioned error (an option's value, a column's type).
	NewLookup func(t *catalog.Table, keys []string) (*lookup.Plan, error)
	// LegacyKeys, when set, reads a table declared with Flink's legacy
	// 'connector.type' = Name: each legacy key and the current key that
	// means the same ("" for one with no effect). See FromLegacyOptions.
	LegacyKeys map[string]string
}

var registry struct {
	mu    sync.RWMutex
	byKey map[string]*Connector
}

// Register adds a connector; a second connector of the same name panics,
// as database/sql's Register does.
func Register(c *Connector) {
	registry.mu.Lock()
	defer registry.mu.Unlock()
	if registry.byKey == nil {
		registry.byKey = map[string]*Connector{}
	}
	if _, dup := registry.byKey[c.Name]; dup {
		panic("connector: Register called twice for " + c.Name)
	}
	registry.byKey[c.Name] = c
}

// Lookup finds a registered connector by its identifier.
func Lookup(name string) (*Connector, bool) {
	registry.mu.RLock()
	defer registry.mu.RUnlock()
	c, ok := registry.byKey[name]
	return c, ok
}

// all returns the registered connectors by rank.
func all() []*Connector { return ranked(func(c *Connector) int { return c.Rank }) }

// ranked returns the registered connectors ordered by rank.
func ranked(rank func(*Connector) int) []*Connector {
	registry.mu.RLock()
	defer registry.mu.RUnlock()
	var cs []*Connector
	for _, c := range registry.byKey {
		cs = append(cs, c)
	}
	sort.Slice(cs, func(i, j int) bool {
		if ri, rj := rank(cs[i]), rank(cs[j]); ri != rj {
			return ri < rj
		}
		return cs[i].Name < cs[j].Name
	})
	return cs
}

// Names lists every registered connector by rank.
func Names() []string {
	var names []string
	for _, c := range all() {
		names = append(names, c.Name)
	}
	return names
}

// SourceNames lists the connectors a table can be read from, by rank;
// only those a table declares in SQL (not "go").
func SourceNames() []string {
	var names []string
	for _, c := range all() {
		if c.NewSource != nil && !c.attachedOnly() {
			names = append(names, c.Name)
		}
	}
	return names
}

// LookupNames lists the connectors whose tables a lookup join can read
// (Connector.LookupFiles or NewLookup), by rank.
func LookupNames() []string {
	var names []string
	for _, c := range all() {
		if c.LookupFiles != nil || c.NewLookup != nil {
			names = append(names, c.Name)
		}
	}
	return names
}

// SinkNames lists the connectors an INSERT can write to, by rank.
func SinkNames() []string {
	var names []string
	for _, c := range ranked(func(c *Connector) int { return c.SinkRank }) {
		if c.NewSink != nil && !c.attachedOnly() {
			names = append(names, c.Name)
		}
	}
	return names
}

// attachedOnly reports a connector whose tables a Go program registers:
// no SQL table names it.
func (c *Connector) attachedOnly() bool { return c.Rank >= AttachedRank }

// AttachedRank is the rank from which a connector is one a Go program
// attaches tables with, never named in a 'connector' option.
const AttachedRank = 1000

// Options returns the option schema of the named connector; nil when no
// such connector is registered.
func Options(name string) []Option {
	c, ok := Lookup(name)
	if !ok {
		return nil
	}
	return c.Options
}

// SourceConnector looks the table's connector up for a read: an error with a
// suggestion when none of that name can be read.
func SourceConnector(conn sql.Option) (*Connector, error) {
	c, ok := Lookup(conn.Value)
	if ok && c.NewSource == nil && c.NewSink != nil && !c.attachedOnly() {
		how := "it can only be written, with INSERT INTO"
		if c.NewLookup != nil {
			how += ", and looked up by key in a lookup join (FOR SYSTEM_TIME AS OF a PROCTIME() column)"
		}
		return nil, sql.Errorf(sql.ErrUnsupported, conn.At, "reading a table of connector '%s' is not supported yet: %s (connectors read: %s)",
			conn.Value, how, join(SourceNames()))
	}
	if !ok || c.NewSource == nil || c.attachedOnly() {
		names := SourceNames()
		return nil, sql.Errorf(sql.ErrUnsupported, conn.At, "connector '%s' is not supported yet (supported: %s)%s",
			conn.Value, join(names), sql.DidYouMean(conn.Value, names))
	}
	return c, nil
}

// TableConnector looks up the connector a CREATE TABLE names, to be read
// or written: an error with a suggestion when there is none of that name.
func TableConnector(conn sql.Option) (*Connector, error) {
	c, ok := Lookup(conn.Value)
	if ok && !c.attachedOnly() {
		return c, nil
	}
	var names []string
	for _, c := range all() {
		if !c.attachedOnly() {
			names = append(names, c.Name)
		}
	}
	return nil, sql.Errorf(sql.ErrUnsupported, conn.At, "connector '%s' is not supported yet (supported: %s)%s",
		conn.Value, join(names), sql.DidYouMean(conn.Value, names))
}

// SinkConnector looks the table's connector up for a write.
func SinkConnector(conn sql.Option) (*Connector, error) {
	c, ok := Lookup(conn.Value)
	if !ok || c.NewSink == nil || c.attachedOnly() {
		return nil, sql.Errorf(sql.ErrUnsupported, conn.At, "writing to connector '%s' is not supported yet (supported: %s)", conn.Value, join(SinkNames()))
	}
	return c, nil
}

func join(names []string) string { return strings.Join(names, ", ") }

// UnsupportedOption is the error of a WITH key the connector does not
// know, with the nearest of known as a suggestion.
func UnsupportedOption(o sql.Option, connector string, known []string) error {
	return sql.Errorf(sql.ErrInvalid, o.At, "unsupported option '%s' for connector '%s'%s", o.Key, connector, sql.DidYouMean(o.Key, known))
}
