package jdbc

import (
	"strconv"
	"strings"

	"github.com/wsql/wsql/catalog"
	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/exec/lookup"
	"github.com/wsql/wsql/sql"
)

// The keys of a table a lookup join queries, as Flink's JDBC connector
// names them, and its legacy keys.
const (
	keyLookupCache             = "lookup.cache"
	keyLookupMaxRows           = "lookup.partial-cache.max-rows"
	keyLookupExpireAfterWrite  = "lookup.partial-cache.expire-after-write"
	keyLookupExpireAfterAccess = "lookup.partial-cache.expire-after-access"
	keyLookupCacheMissing      = "lookup.partial-cache.cache-missing-key"
	keyLookupMaxRetries        = "lookup.max-retries"
	keyLegacyCacheMaxRows      = "lookup.cache.max-rows"
	keyLegacyCacheTTL          = "lookup.cache.ttl"
	keyLegacyCacheMissing      = "lookup.cache.caching-missing-key"
)

const defaultLookupMaxRetries = 3

var lookupOptions = []connector.Option{
	{Key: keyLookupCache, Type: "NONE | PARTIAL", Default: "NONE", Scope: connector.Source,
		Description: "as the table of a lookup join: 'PARTIAL' keeps the rows of the keys looked up between batches; 'NONE' queries every batch's keys"},
	{Key: keyLookupMaxRows, Type: "int", Scope: connector.Source,
		Description: "the rows the partial cache holds at most (a key without rows counts one), the least recently read key evicted first; unset or 0: no bound"},
	{Key: keyLookupExpireAfterWrite, Type: "duration", Scope: connector.Source,
		Description: "how long after its rows were fetched a key leaves the partial cache; unset: never"},
	{Key: keyLookupExpireAfterAccess, Type: "duration", Scope: connector.Source,
		Description: "how long after it was last read a key leaves the partial cache; unset: never"},
	{Key: keyLookupCacheMissing, Type: "bool", Default: "true", Scope: connector.Source,
		Description: "whether the partial cache keeps a key the table has no row of"},
	{Key: keyLookupMaxRetries, Type: "int", Default: strconv.Itoa(defaultLookupMaxRetries), Scope: connector.Source,
		Description: "how often a lookup query that lost its connection is tried again, on a new connection"},
	{Key: keyLegacyCacheMaxRows, Type: "int", Scope: connector.Source,
		Description: "Flink's legacy key: with a value above 0, a partial cache of that many rows"},
	{Key: keyLegacyCacheTTL, Type: "duration", Scope: connector.Source,
		Description: "Flink's legacy key: the partial cache's expire-after-write"},
	{Key: keyLegacyCacheMissing, Type: "bool", Default: "true", Scope: connector.Source,
		Description: "Flink's legacy key: the partial cache's cache-missing-key"},
}

// lookupConfig is how a lookup join queries a table.
type lookupConfig struct {
	cache      lookup.CacheOptions
	maxRetries int
}

// readLookupConfig reads the lookup keys of table t; a bad value is an
// error at it.
func readLookupConfig(t *catalog.Table) (lookupConfig, error) {
	c := lookupConfig{cache: lookup.CacheOptions{CacheMissingKey: true}, maxRetries: defaultLookupMaxRetries}
	var cacheSet, legacyRows bool
	for _, o := range t.Options {
		if !hasKey(lookupOptions, o.Key) {
			continue
		}
		var err error
		switch o.Key {
		case keyLookupCache:
			switch strings.ToUpper(strings.TrimSpace(o.Value)) {
			case "NONE":
			case "PARTIAL":
				c.cache.Partial = true
			case "FULL":
				err = sql.Errorf(sql.ErrUnsupported, o.At, "option '%s' = 'FULL' is not supported yet: 'NONE' or 'PARTIAL'", o.Key)
			default:
				err = sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be 'NONE' or 'PARTIAL', got '%s'", o.Key, o.Value)
			}
			cacheSet = true
		case keyLookupMaxRows, keyLegacyCacheMaxRows:
			c.cache.MaxRows, err = connector.NonNegativeInt(o)
			legacyRows = legacyRows || o.Key == keyLegacyCacheMaxRows && c.cache.MaxRows > 0
		case keyLookupExpireAfterWrite, keyLegacyCacheTTL:
			c.cache.ExpireAfterWrite, err = connector.Duration(o)
		case keyLookupExpireAfterAccess:
			c.cache.ExpireAfterAccess, err = connector.Duration(o)
		case keyLookupCacheMissing, keyLegacyCacheMissing:
			c.cache.CacheMissingKey, err = connector.Bool(o)
		case keyLookupMaxRetries:
			var n int64
			n, err = connector.NonNegativeInt(o)
			c.maxRetries = int(n)
		}
		if err != nil {
			return c, err
		}
	}
	if !cacheSet && legacyRows {
		c.cache.Partial = true // Flink's legacy keys turn the cache on
	}
	return c, nil
}
