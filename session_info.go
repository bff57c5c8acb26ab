package wsql

import (
	"slices"
	"sort"
	"strings"

	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/function"
	"github.com/wsql/wsql/planner"
	"github.com/wsql/wsql/planner/setting"
)

// TableNames lists the session's tables and views, sorted, for shells and
// completion.
func (e *Engine) TableNames() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	names := append(e.cat.TableNames(), e.cat.ViewNames()...)
	sort.Strings(names)
	return names
}

// ColumnNames lists the columns of a table or view (nil for an unknown
// name, or a view that no longer plans), for completion.
func (e *Engine) ColumnNames(table string) []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if t := e.cat.Table(table); t != nil {
		return t.ColumnNames()
	}
	if v := e.cat.View(table); v != nil {
		// a view's columns are its query's, as DESCRIBE plans them
		p, err := planner.PlanSelect(v.Query, e.cat, planner.Options{Functions: e.functions()})
		if err != nil {
			return nil
		}
		var names []string
		for i, f := range p.Schema().Fields() {
			if i < len(v.Columns) {
				names = append(names, v.Columns[i])
			} else {
				names = append(names, f.Name)
			}
		}
		return names
	}
	return nil
}

// FunctionNames lists the functions wsql runs (SHOW FUNCTIONS).
func FunctionNames() []string { return function.Builtins().RunnableNames() }

// SettingKeys lists the SET keys wsql reads, sorted, for completion.
func SettingKeys() []string { return setting.Keys(setting.ScopeSession) }

// Keywords lists the SQL keywords of wsql's dialect, for completion.
func Keywords() []string {
	return []string{
		"SELECT", "FROM", "WHERE", "GROUP BY", "HAVING", "AS", "AND", "OR", "NOT", "IN", "BETWEEN",
		"LIKE", "IS NULL", "IS NOT NULL", "CASE", "WHEN", "THEN", "ELSE", "END", "CAST", "DISTINCT",
		"CREATE TABLE", "CREATE VIEW", "CREATE TEMPORARY VIEW", "DROP TABLE", "DROP VIEW", "IF EXISTS",
		"IF NOT EXISTS", "WITH", "WATERMARK FOR", "INTERVAL", "SECOND", "MINUTE", "HOUR", "DAY",
		"INSERT INTO", "EXPLAIN", "SET", "RESET", "SHOW TABLES", "SHOW VIEWS", "SHOW FUNCTIONS", "SHOW USER FUNCTIONS",
		"CREATE FUNCTION", "CREATE TEMPORARY FUNCTION", "CREATE TEMPORARY SYSTEM FUNCTION", "DROP FUNCTION",
		"SHOW COLUMNS FROM", "SHOW CREATE TABLE", "SHOW CREATE VIEW", "SHOW CURRENT CATALOG",
		"SHOW CURRENT DATABASE", "SHOW CATALOGS", "SHOW DATABASES", "USE",
		"DESCRIBE", "TABLE", "DESCRIPTOR", "STRING", "BOOLEAN", "INT", "BIGINT", "DOUBLE",
		"DECIMAL", "TIMESTAMP", "TIMESTAMP_LTZ", "DATE", "TIME",
	}
}

// ConnectorNames lists the connectors a table's 'connector' option can
// name, from the connector registry, for completion.
func ConnectorNames() []string {
	return append(connector.SourceNames(), onlySinks()...)
}

// onlySinks are the connectors an INSERT writes to that no table is read from.
func onlySinks() []string {
	var names []string
	for _, n := range connector.SinkNames() {
		if !slices.Contains(connector.SourceNames(), n) {
			names = append(names, n)
		}
	}
	return names
}

// FormatNames lists the formats a table's 'format' option can name.
func FormatNames() []string {
	var names []string
	for _, f := range connector.Formats() {
		names = append(names, f.Name)
	}
	return names
}

// OptionKeys lists the WITH keys of the named connector and of every
// format, or of every connector when name is not one, for completion.
func OptionKeys(name string) []string {
	names := []string{name}
	if _, ok := connector.Lookup(name); !ok {
		names = ConnectorNames()
	}
	var keys []string
	add := func(k string) {
		if !slices.Contains(keys, k) {
			keys = append(keys, k)
		}
	}
	for _, n := range names {
		for _, o := range connector.Options(n) {
			add(o.Key)
		}
	}
	for _, f := range connector.Formats() {
		for _, o := range f.Options {
			add(o.Key)
		}
	}
	return keys
}

// OptionValues lists the values a WITH key takes, for completion: the
// connectors for 'connector', the formats of the named connector (or all)
// for 'format', the choices of an enumerated option, true and false for a
// boolean one; nil for a free value.
func OptionValues(connectorName, key string) []string {
	switch key {
	case connector.KeyConnector:
		return ConnectorNames()
	case connector.KeyFormat:
		if c, ok := connector.Lookup(connectorName); ok {
			for _, o := range c.Options {
				if o.Key == key {
					if choices := optionChoices(o.Type); choices != nil {
						return choices
					}
				}
			}
		}
		return FormatNames()
	}
	names := []string{connectorName}
	if _, ok := connector.Lookup(connectorName); !ok {
		names = ConnectorNames()
	}
	var opts []connector.Option
	for _, n := range names {
		opts = append(opts, connector.Options(n)...)
	}
	for _, f := range connector.Formats() {
		opts = append(opts, f.Options...)
	}
	for _, o := range opts {
		if o.Key == key {
			return optionChoices(o.Type)
		}
	}
	return nil
}

// optionChoices are the values of an option of type typ ("bool", or an
// enumeration such as "csv | json"), nil for other types.
func optionChoices(typ string) []string {
	if typ == "bool" {
		return []string{"true", "false"}
	}
	if !strings.Contains(typ, "|") {
		return nil
	}
	var choices []string
	for _, c := range strings.Split(typ, "|") {
		choices = append(choices, strings.TrimSpace(c))
	}
	return choices
}
