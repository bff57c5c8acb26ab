package connector

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/wsql/wsql/sql"
)

// The readers of option values: each returns a positioned error naming the
// key and the value it got.

// Int reads an integer option.
func Int(o sql.Option) (int64, error) {
	v, err := strconv.ParseInt(strings.TrimSpace(o.Value), 10, 64)
	if err != nil {
		return 0, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be an integer, got '%s'", o.Key, o.Value)
	}
	return v, nil
}

// NonNegativeInt reads an integer option that must not be negative.
func NonNegativeInt(o sql.Option) (int64, error) {
	v, err := Int(o)
	if err == nil && v < 0 {
		err = sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must not be negative, got '%s'", o.Key, o.Value)
	}
	return v, err
}

// Timestamp reads a TIMESTAMP literal ('2024-01-01 00:00:00[.000]') as
// epoch milliseconds of its wall time.
func Timestamp(o sql.Option) (int64, error) {
	v := strings.TrimSpace(o.Value)
	for _, layout := range []string{"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999", "2006-01-02"} {
		if ts, err := time.Parse(layout, v); err == nil {
			return ts.UnixMilli(), nil
		}
	}
	return 0, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be a timestamp like '2024-01-01 00:00:00', got '%s'", o.Key, o.Value)
}

// Bool reads 'true' or 'false', in any case.
func Bool(o sql.Option) (bool, error) {
	switch strings.ToLower(o.Value) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be 'true' or 'false', got '%s'", o.Key, o.Value)
}

// Duration reads a duration in Flink's syntax ('5 s', '1 min').
func Duration(o sql.Option) (time.Duration, error) {
	d, err := ParseDuration(o.Value)
	if err != nil {
		return 0, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be a duration like '5 s', '1 min' or '500 ms', got '%s': %v", o.Key, o.Value, err)
	}
	return d, nil
}

// SingleChar reads a one-character option; Flink also accepts the escapes
// '\t' and '\\' written out.
func SingleChar(o sql.Option) (byte, error) {
	v := o.Value
	switch v {
	case `\t`:
		return '\t', nil
	case `\\`:
		return '\\', nil
	}
	if len(v) != 1 {
		return 0, sql.Errorf(sql.ErrInvalid, o.At, "option '%s' must be a single character, got %s", o.Key, strconv.Quote(v))
	}
	return v[0], nil
}

// Contains reports whether list holds s.
func Contains(list []string, s string) bool { return slices.Contains(list, s) }
