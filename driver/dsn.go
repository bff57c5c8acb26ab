package driver

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"sort"
	"strings"

	"github.com/wsql/wsql"
	"github.com/wsql/wsql/planner/setting"
)

// The driver's data source name: empty, or URL-query-encoded key=value
// pairs joined by &. The keys are the settings of planner/settings.go with
// ScopeDSN:
//
//	batch-size=N             rows a source puts in one batch (WithBatchSize)
//	init=PATH                a SQL file of statements without results
//	                         (CREATE TABLE, SET, ...) run at open
//	<session setting>=VALUE  any key SET has an effect on, e.g.
//	                         table.local-time-zone, applied at open
//
// Settings are applied before the init file, in key order, so the init
// file's own SET statements win.

// dsnConfig is a parsed data source name.
type dsnConfig struct {
	batchSize int
	init      string
	settings  [][2]string // key, value; sorted by key
}

// parseDSN reads dsn; an unknown key or a bad value is an error naming it.
// Unlike SET, which takes any key as Flink does, a DSN refuses keys
// without effect: there a typo would otherwise go unnoticed.
func parseDSN(dsn string) (dsnConfig, error) {
	var cfg dsnConfig
	if dsn == "" {
		return cfg, nil
	}
	q, err := url.ParseQuery(dsn)
	if err != nil {
		return cfg, fmt.Errorf("wsql: bad DSN %q: %v (write key=value pairs joined by &)", dsn, err)
	}
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if len(q[k]) > 1 {
			return cfg, fmt.Errorf("wsql: DSN key %q is given %d times", k, len(q[k]))
		}
		v := q[k][0]
		set, ok := setting.Lookup(k, setting.ScopeDSN)
		if !ok {
			return cfg, fmt.Errorf("wsql: unknown DSN key %q: the keys are %s", k, strings.Join(setting.Keys(setting.ScopeDSN), ", "))
		}
		if err := set.Check(v); err != nil {
			return cfg, fmt.Errorf("wsql: DSN key %s: %w", k, err)
		}
		switch {
		case k == setting.DSNBatchSize:
			cfg.batchSize, _ = setting.ParseBatchSize(v) // checked above
		case k == setting.DSNInit:
			cfg.init = v
		case set.Scope&setting.ScopeSession != 0:
			cfg.settings = append(cfg.settings, [2]string{k, v})
		}
	}
	return cfg, nil
}

// openDSN opens an Engine configured by dsn.
func openDSN(dsn string) (*wsql.Engine, error) {
	cfg, err := parseDSN(dsn)
	if err != nil {
		return nil, err
	}
	var opts []wsql.Option
	if cfg.batchSize > 0 {
		opts = append(opts, wsql.WithBatchSize(cfg.batchSize))
	}
	e := wsql.New(opts...)
	ctx := context.Background()
	for _, kv := range cfg.settings {
		if err := e.Exec(ctx, "SET "+quote(kv[0])+" = "+quote(kv[1])); err != nil {
			e.Close()
			return nil, fmt.Errorf("wsql: DSN key %s: %w", kv[0], err)
		}
	}
	if cfg.init != "" {
		src, err := os.ReadFile(cfg.init)
		if err != nil {
			e.Close()
			return nil, fmt.Errorf("wsql: DSN key init: %w", err)
		}
		if err := e.Exec(ctx, string(src)); err != nil {
			e.Close()
			// The position is in the file: FormatError(file text, err) shows it.
			return nil, fmt.Errorf("wsql: init file %s: %w", cfg.init, err)
		}
	}
	return e, nil
}

// quote writes s as a SQL string literal. wsql reads no backslash
// escapes, so doubling the quotes is the whole escaping.
func quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}
