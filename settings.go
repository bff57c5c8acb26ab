package wsql

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/wsql/wsql/planner"
	"github.com/wsql/wsql/sql"
)

// settings are the session's SET keys. Flink accepts any key; wsql does
// too, and says when a key has no effect in wsql so nothing is silently
// ignored.
type settings struct {
	values   map[string]string
	location *time.Location
}

// settingsInEffect are the keys wsql reads, with their defaults.
var settingsInEffect = map[string]string{
	"table.local-time-zone":   "default",
	planner.SetEarlyFire:      "false",
	planner.SetEarlyFireDelay: "0 s",
	planner.SetLateFire:       "false",
	planner.SetLateFireDelay:  "0 s",
	planner.SetAllowLateness:  "0 s",
	planner.SetLateDataPath:   "",
	planner.SetBadRowsPath:    "",
	setParallelism:            "1",
	setStateMaxBytes:          "",
	setMaxRecordBytes:         "64 mb",
	setCheckpointDir:          "",
	setCheckpointInterval:     "",
}

// setParallelism is Flink's key for how many parallel instances run an
// operator: in wsql, how many goroutines run a window aggregation, each
// over the group keys that hash to it.
const setParallelism = "parallelism.default"

// parseParallelism reads a 'parallelism.default' value.
func parseParallelism(v string) (int, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 1 || n > 256 {
		return 0, fmt.Errorf("invalid 'parallelism.default' %q: use a whole number from 1 to 256", v)
	}
	return n, nil
}

// setStateMaxBytes bounds the state of each window aggregation: past it
// the query stops with an error instead of growing until the OS kills it.
const setStateMaxBytes = "wsql.state.max-bytes"

// setMaxRecordBytes bounds one input record (a CSV record, a JSON line,
// its line end included): a longer one is a bad row, so input without line
// ends cannot be buffered until the process runs out of memory.
const setMaxRecordBytes = "wsql.max-record-bytes"

// maxRecordBytes reads 'wsql.max-record-bytes' as the decoders take it;
// above 1 GiB a record could not be held in one buffer anyway.
func maxRecordBytes(v string) (int, error) {
	n, err := parseMemorySize(setMaxRecordBytes, v)
	if err != nil {
		return 0, err
	}
	if n > 1<<30 {
		return 0, fmt.Errorf("invalid '%s' %q: use at most '1 gb'", setMaxRecordBytes, v)
	}
	return int(n), nil
}

// memoryUnits are Flink's MemorySize units (powers of 1024).
var memoryUnits = map[string]int64{
	"": 1, "b": 1, "bytes": 1,
	"k": 1 << 10, "kb": 1 << 10, "kibibytes": 1 << 10,
	"m": 1 << 20, "mb": 1 << 20, "mebibytes": 1 << 20,
	"g": 1 << 30, "gb": 1 << 30, "gibibytes": 1 << 30,
	"t": 1 << 40, "tb": 1 << 40, "tebibytes": 1 << 40,
}

// parseMemorySize reads a size as Flink writes one: '256 mb', '1gb',
// '512 kb' or plain bytes; key names the setting in errors.
func parseMemorySize(key, v string) (int64, error) {
	t := strings.TrimSpace(v)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	bad := fmt.Errorf("invalid '%s' %q: use a positive size such as '512 kb', '64 mb', '1 gb' or a number of bytes", key, v)
	n, err := strconv.ParseInt(t[:i], 10, 64)
	unit, ok := memoryUnits[strings.ToLower(strings.TrimSpace(t[i:]))]
	if i == 0 || err != nil || !ok || n <= 0 || n > math.MaxInt64/unit {
		return 0, bad
	}
	return n * unit, nil
}

func newSettings() *settings {
	return &settings{values: map[string]string{}, location: time.Local}
}

func (r *runner) set(s *sql.Set) error {
	st := r.e.settings
	if s.Key == "" {
		return r.table([]string{"key", "value"}, st.list())
	}
	if _, ok := settingsInEffect[s.Key]; !ok {
		var keys []string
		for k := range settingsInEffect {
			keys = append(keys, k)
		}
		r.notice(s.At, fmt.Sprintf("'%s' has no effect in wsql yet%s", s.Key, sql.DidYouMean(s.Key, keys)))
	}
	if err := planner.ValidateSetting(s.Key, s.Value); err != nil {
		return sql.Errorf(sql.ErrInvalid, s.At, "%v", err)
	}
	if s.Key == setParallelism {
		if _, err := parseParallelism(s.Value); err != nil {
			return sql.Errorf(sql.ErrInvalid, s.At, "%v", err)
		}
	}
	if s.Key == setStateMaxBytes {
		if _, err := parseMemorySize(setStateMaxBytes, s.Value); err != nil {
			return sql.Errorf(sql.ErrInvalid, s.At, "%v", err)
		}
	}
	if s.Key == setMaxRecordBytes {
		if _, err := maxRecordBytes(s.Value); err != nil {
			return sql.Errorf(sql.ErrInvalid, s.At, "%v", err)
		}
	}
	if s.Key == setCheckpointInterval {
		if _, err := parseInterval(s.Value); err != nil {
			return sql.Errorf(sql.ErrInvalid, s.At, "%v", err)
		}
	}
	if s.Key == "table.local-time-zone" {
		loc, err := loadZone(s.Value)
		if err != nil {
			return sql.Errorf(sql.ErrInvalid, s.At, "invalid 'table.local-time-zone' %q: use a zone name such as 'UTC' or 'Asia/Shanghai', or 'default'", s.Value)
		}
		st.location = loc
	}
	st.values[s.Key] = s.Value
	return nil
}

func (st *settings) reset(s *sql.Reset) error {
	if s.Key == "" {
		st.values = map[string]string{}
		st.location = time.Local
		return nil
	}
	delete(st.values, s.Key)
	if s.Key == "table.local-time-zone" {
		st.location = time.Local
	}
	return nil
}

// list returns every setting in effect or set, sorted by key.
func (st *settings) list() [][]string {
	all := map[string]string{}
	for k, v := range settingsInEffect {
		if v != "" {
			all[k] = v
		}
	}
	for k, v := range st.values {
		all[k] = v
	}
	var keys []string
	for k := range all {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	rows := make([][]string, len(keys))
	for i, k := range keys {
		rows[i] = []string{k, all[k]}
	}
	return rows
}

// loadZone reads a 'table.local-time-zone' value; 'default' is the
// machine's zone, as in Flink.
func loadZone(name string) (*time.Location, error) {
	if name == "default" {
		return time.Local, nil
	}
	return time.LoadLocation(name)
}

// get returns a setting's value as SET gave it.
func (st *settings) get(key string) (string, bool) {
	v, ok := st.values[key]
	return v, ok
}
