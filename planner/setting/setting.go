package setting

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/wsql/wsql/exec/connector"
)

// Setting is one key of wsql's configuration, declared once here the way
// Flink declares a ConfigOption. SET and RESET, the listing of `SET;`, the
// database/sql driver's data source name, "did you mean" for a mistyped
// key, shell completion and the docs test all read the table below, so a
// new setting is one entry (and the code that reads its value).
type Setting struct {
	Key         string
	Type        Type
	Default     string // in effect when the key is not set, listed by `SET;`; "" for none
	Scope       Scope
	Description string             // one line
	check       func(string) error // nil: any value
}

// Type is the kind of value a setting takes, as the docs name it.
type Type string

// The kinds of setting values.
const (
	TypeBoolean    Type = "boolean"
	TypeDuration   Type = "duration"
	TypeMemorySize Type = "memory size"
	TypeInteger    Type = "integer"
	TypeTimeZone   Type = "time zone"
	TypePath       Type = "path"
	TypeEnum       Type = "enum"
)

// Scope says where a setting can be given.
type Scope uint8

const (
	// ScopeSession: SET and RESET in a session; listed by `SET;`.
	ScopeSession Scope = 1 << iota
	// ScopeDSN: a key of the database/sql driver's data source name.
	ScopeDSN
)

// The keys wsql reads. Flink's names where Flink has the setting; wsql's
// own under wsql.*.
const (
	LocalTimeZone      = "table.local-time-zone"
	EarlyFire          = "table.exec.emit.early-fire.enabled"
	EarlyFireDelay     = "table.exec.emit.early-fire.delay"
	LateFire           = "table.exec.emit.late-fire.enabled"
	LateFireDelay      = "table.exec.emit.late-fire.delay"
	AllowLateness      = "table.exec.emit.allow-lateness"
	LateDataPath       = "wsql.late-data.path"
	BadRowsPath        = "wsql.bad-rows.path"
	MaxRecordBytes     = "wsql.max-record-bytes"
	StateMaxBytes      = "wsql.state.max-bytes"
	StateSpillAfter    = "wsql.state.spill-after"
	StateTTL           = "table.exec.state.ttl"
	Parallelism        = "parallelism.default"
	CheckpointDir      = "execution.checkpointing.dir"
	CheckpointInterval = "execution.checkpointing.interval"
	TableHints         = "table.dynamic-table-options.enabled"
	TypeLengthEnforcer = "table.exec.sink.type-length-enforcer"
	ResultMode         = "sql-client.execution.result-mode"

	// DSNBatchSize and DSNInit configure the engine a data source name
	// opens; SET has no use for them.
	DSNBatchSize = "batch-size"
	DSNInit      = "init"
)

// DefaultSpillAfter is 'wsql.state.spill-after' unset: a query whose
// joins keep more rows than this spills the oldest to disk.
const DefaultSpillAfter = "128 mb"

// ParseSpillAfter parses 'wsql.state.spill-after': a memory size, or 0
// (with or without a unit) to keep every row in memory.
func ParseSpillAfter(v string) (int64, error) {
	t := strings.TrimSpace(v)
	unit := strings.TrimLeft(t, "0")
	if unit != t && (unit == "" || unit[0] < '0' || unit[0] > '9') {
		// zero, with or without a unit: the unit must still be one
		if _, err := ParseMemorySize(StateSpillAfter, "1"+unit); err != nil {
			_, err = ParseMemorySize(StateSpillAfter, v)
			return 0, err
		}
		return 0, nil
	}
	return ParseMemorySize(StateSpillAfter, v)
}

// sessionAndDSN: a session setting, also accepted in a data source name
// (applied with SET when the DB opens).
const sessionAndDSN = ScopeSession | ScopeDSN

var settings = []Setting{
	{Key: LocalTimeZone, Type: TypeTimeZone, Default: "default", Scope: sessionAndDSN,
		Description: "the zone of TIMESTAMP_LTZ values and their windows; 'default' is the machine's",
		check:       checkZone},
	{Key: EarlyFire, Type: TypeBoolean, Default: "false", Scope: sessionAndDSN,
		Description: "emit window results before the window closes, as an update stream",
		check:       func(v string) error { _, err := ParseBool(EarlyFire, v); return err }},
	{Key: EarlyFireDelay, Type: TypeDuration, Default: "0 s", Scope: sessionAndDSN,
		Description: "how long after a window's first change an early firing comes; 0 fires on every row",
		check:       func(v string) error { _, err := ParseDuration(EarlyFireDelay, v); return err }},
	{Key: LateFire, Type: TypeBoolean, Default: "false", Scope: sessionAndDSN,
		Description: "update a fired window when late rows arrive within the allowed lateness",
		check:       func(v string) error { _, err := ParseBool(LateFire, v); return err }},
	{Key: LateFireDelay, Type: TypeDuration, Default: "0 s", Scope: sessionAndDSN,
		Description: "like the early-fire delay, for late firings",
		check:       func(v string) error { _, err := ParseDuration(LateFireDelay, v); return err }},
	{Key: AllowLateness, Type: TypeDuration, Default: "0 s", Scope: sessionAndDSN,
		Description: "how long a window is kept after it fires; in effect only with late firing",
		check:       func(v string) error { _, err := ParseDuration(AllowLateness, v); return err }},
	{Key: LateDataPath, Type: TypePath, Scope: sessionAndDSN,
		Description: "a .csv file for the rows that missed their window",
		check:       CheckLateDataPath},
	{Key: BadRowsPath, Type: TypePath, Scope: sessionAndDSN,
		Description: "a file for the bad input rows that were skipped"},
	{Key: MaxRecordBytes, Type: TypeMemorySize, Default: "64 mb", Scope: sessionAndDSN,
		Description: "the longest input record a source reads; a longer one is a bad row",
		check:       func(v string) error { _, err := ParseMaxRecordBytes(v); return err }},
	{Key: StateMaxBytes, Type: TypeMemorySize, Scope: sessionAndDSN,
		Description: "stop a query whose window aggregation's state grows past this size",
		check:       func(v string) error { _, err := ParseMemorySize(StateMaxBytes, v); return err }},
	{Key: StateSpillAfter, Type: TypeMemorySize, Default: DefaultSpillAfter, Scope: sessionAndDSN,
		Description: "how much of the rows its regular joins keep a query holds in memory; beyond it the oldest go to a temporary file; 0 keeps them all in memory",
		check:       func(v string) error { _, err := ParseSpillAfter(v); return err }},
	{Key: StateTTL, Type: TypeDuration, Default: "0 ms", Scope: sessionAndDSN,
		Description: "drop a key's state of a GROUP BY without a window, a Top-N or a deduplication once no row has changed it for this long (processing time); 0 keeps it for the run",
		check:       func(v string) error { _, err := ParseDuration(StateTTL, v); return err }},
	{Key: Parallelism, Type: TypeInteger, Default: "1", Scope: sessionAndDSN,
		Description: "how many goroutines run a window aggregation, each over the keys that hash to it",
		check:       func(v string) error { _, err := ParseParallelism(v); return err }},
	{Key: CheckpointDir, Type: TypePath, Scope: sessionAndDSN,
		Description: "take checkpoints of every query into this directory (or s3://bucket/prefix) and resume from them"},
	{Key: CheckpointInterval, Type: TypeDuration, Scope: sessionAndDSN,
		Description: "how often a checkpoint is taken while a query runs (10 s with a directory)",
		check:       func(v string) error { _, err := ParseCheckpointInterval(v); return err }},
	{Key: TableHints, Type: TypeBoolean, Default: "true", Scope: sessionAndDSN,
		Description: "honour table hints, FROM t /*+ OPTIONS('key' = 'value') */; when false a hint is an error",
		check:       func(v string) error { _, err := ParseBool(TableHints, v); return err }},
	{Key: TypeLengthEnforcer, Type: TypeEnum, Default: "IGNORE", Scope: sessionAndDSN,
		Description: "TRIM_PAD cuts values to a sink's CHAR(n)/VARCHAR(n)/BINARY(n)/VARBINARY(n) and pads CHAR(n)/BINARY(n); IGNORE writes them as they are",
		check:       func(v string) error { _, err := ParseTrimPad(v); return err }},
	{Key: ResultMode, Type: TypeEnum, Scope: ScopeSession,
		Description: "how the shell and the command line show a query's result, as Flink's SQL client: table (the materialised rows, refreshed in place on a terminal), changelog (every change with its op) or tableau (a boxed table as rows arrive)",
		check:       func(v string) error { _, err := ParseResultMode(v); return err }},
	{Key: DSNBatchSize, Type: TypeInteger, Scope: ScopeDSN,
		Description: "how many rows a source puts in one batch",
		check:       checkBatchSize},
	{Key: DSNInit, Type: TypePath, Scope: ScopeDSN,
		Description: "a SQL file of statements without results run when the DB opens",
		check:       checkInitPath},
}

// All returns every setting, sorted by key.
func All() []Setting {
	out := append([]Setting(nil), settings...)
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// Keys lists the keys of the settings given in scope, sorted.
func Keys(scope Scope) []string {
	var keys []string
	for _, s := range settings {
		if s.Scope&scope != 0 {
			keys = append(keys, s.Key)
		}
	}
	sort.Strings(keys)
	return keys
}

// Lookup returns the setting of key if it may be given in scope.
func Lookup(key string, scope Scope) (Setting, bool) {
	for _, s := range settings {
		if s.Key == key && s.Scope&scope != 0 {
			return s, true
		}
	}
	return Setting{}, false
}

// Check tells whether value is valid for the setting, so a bad value fails
// where it is given rather than at the next query. The error names the key.
func (s Setting) Check(value string) error {
	if s.check == nil {
		return nil
	}
	return s.check(value)
}

func ParseBool(key, v string) (bool, error) {
	switch strings.ToLower(v) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("'%s' must be 'true' or 'false', got '%s'", key, v)
}

// ParseTrimPad reads 'table.exec.sink.type-length-enforcer' (Flink's
// IGNORE or TRIM_PAD, any case): true for TRIM_PAD.
func ParseTrimPad(v string) (bool, error) {
	switch strings.ToUpper(v) {
	case "IGNORE":
		return false, nil
	case "TRIM_PAD":
		return true, nil
	}
	return false, fmt.Errorf("'%s' must be 'IGNORE' or 'TRIM_PAD', got '%s'", TypeLengthEnforcer, v)
}

// ParseResultMode reads 'sql-client.execution.result-mode' (TABLE,
// CHANGELOG or TABLEAU, any case, as Flink reads it) in lower case.
func ParseResultMode(v string) (string, error) {
	switch m := strings.ToLower(v); m {
	case "table", "changelog", "tableau":
		return m, nil
	}
	return "", fmt.Errorf("'%s' must be 'table', 'changelog' or 'tableau', got '%s'", ResultMode, v)
}

// ParseDuration reads a duration setting in milliseconds.
func ParseDuration(key, v string) (int64, error) {
	d, err := connector.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("'%s': %v (write e.g. '0 s', '5 s' or '1 min')", key, err)
	}
	return d.Milliseconds(), nil
}

// CheckLateDataPath tells whether v may name the file of late rows.
func CheckLateDataPath(v string) error {
	if v != "" && !strings.HasSuffix(strings.ToLower(v), ".csv") {
		return fmt.Errorf("'%s' must name a .csv file (other formats are not supported yet), got '%s'", LateDataPath, v)
	}
	return nil
}

// LoadZone reads a 'table.local-time-zone' value; 'default' is the
// machine's zone, as in Flink.
func LoadZone(name string) (*time.Location, error) {
	if name == "default" {
		return time.Local, nil
	}
	return time.LoadLocation(name)
}

func checkZone(v string) error {
	if _, err := LoadZone(v); err != nil {
		return fmt.Errorf("invalid '%s' %q: use a zone name such as 'UTC' or 'Asia/Shanghai', or 'default'", LocalTimeZone, v)
	}
	return nil
}

// ParseParallelism reads a 'parallelism.default' value.
func ParseParallelism(v string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 1 || n > 256 {
		return 0, fmt.Errorf("invalid '%s' %q: use a whole number from 1 to 256", Parallelism, v)
	}
	return n, nil
}

// ParseMaxRecordBytes reads 'wsql.max-record-bytes' as the decoders take
// it; above 1 GiB a record could not be held in one buffer anyway.
func ParseMaxRecordBytes(v string) (int, error) {
	n, err := ParseMemorySize(MaxRecordBytes, v)
	if err != nil {
		return 0, err
	}
	if n > 1<<30 {
		return 0, fmt.Errorf("invalid '%s' %q: use at most '1 gb'", MaxRecordBytes, v)
	}
	return int(n), nil
}

// ParseCheckpointInterval reads an 'execution.checkpointing.interval' value.
func ParseCheckpointInterval(v string) (time.Duration, error) {
	d, err := connector.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("invalid '%s' %q: use a positive duration such as '10 s' or '1 min'", CheckpointInterval, v)
	}
	return d, nil
}

// ParseBatchSize reads the data source name's 'batch-size'.
func ParseBatchSize(v string) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("%q is not a positive whole number", v)
	}
	return n, nil
}

func checkBatchSize(v string) error {
	_, err := ParseBatchSize(v)
	return err
}

func checkInitPath(v string) error {
	if v == "" {
		return fmt.Errorf("the path of a SQL file is missing")
	}
	return nil
}

// ParseMemorySize reads a size as Flink writes one: '256 mb', '1gb',
// '512 kb' or plain bytes; key names the setting in errors.
func ParseMemorySize(key, v string) (int64, error) { return connector.ParseMemorySize(key, v) }
