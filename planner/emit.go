package planner

import (
	"fmt"
	"strings"

	"github.com/wsql/wsql/exec/connector"
	"github.com/wsql/wsql/windowop"
)

// Session settings that change how windows emit (Flink's table.exec.emit
// options for group windows) and where late rows go.
const (
	SetEarlyFire      = "table.exec.emit.early-fire.enabled"
	SetEarlyFireDelay = "table.exec.emit.early-fire.delay"
	SetLateFire       = "table.exec.emit.late-fire.enabled"
	SetLateFireDelay  = "table.exec.emit.late-fire.delay"
	SetAllowLateness  = "table.exec.emit.allow-lateness"
	SetLateDataPath   = "wsql.late-data.path"
	SetBadRowsPath    = "wsql.bad-rows.path"
)

// EmitSettings lists the keys ParseEmit reads, for SET's "has no effect" check.
var EmitSettings = []string{SetEarlyFire, SetEarlyFireDelay, SetLateFire, SetLateFireDelay, SetAllowLateness, SetLateDataPath}

// Emit is how windows emit, read from the session settings.
type Emit struct {
	Strategy        windowop.EmitStrategy
	AllowedLateness int64  // ms; only in effect with late firing, as in Flink
	LateDataPath    string // a CSV file for rows that missed their window
}

// ParseEmit reads the emit settings. As in Flink's legacy group windows,
// allow-lateness has an effect only when late firing is enabled.
func ParseEmit(get func(key string) (string, bool)) (Emit, error) {
	var e Emit
	var err error
	if e.Strategy.EarlyFire, err = boolSetting(get, SetEarlyFire); err != nil {
		return e, err
	}
	if e.Strategy.LateFire, err = boolSetting(get, SetLateFire); err != nil {
		return e, err
	}
	if e.Strategy.EarlyFireDelay, err = durationSetting(get, SetEarlyFireDelay); err != nil {
		return e, err
	}
	if e.Strategy.LateFireDelay, err = durationSetting(get, SetLateFireDelay); err != nil {
		return e, err
	}
	lateness, err := durationSetting(get, SetAllowLateness)
	if err != nil {
		return e, err
	}
	if e.Strategy.LateFire {
		e.AllowedLateness = lateness
	}
	e.LateDataPath, _ = get(SetLateDataPath)
	if e.LateDataPath != "" && !strings.HasSuffix(strings.ToLower(e.LateDataPath), ".csv") {
		return e, fmt.Errorf("'%s' must name a .csv file (other formats are not supported yet), got '%s'", SetLateDataPath, e.LateDataPath)
	}
	return e, nil
}

func boolSetting(get func(string) (string, bool), key string) (bool, error) {
	v, ok := get(key)
	if !ok {
		return false, nil
	}
	switch strings.ToLower(v) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("'%s' must be 'true' or 'false', got '%s'", key, v)
}

func durationSetting(get func(string) (string, bool), key string) (int64, error) {
	v, ok := get(key)
	if !ok {
		return 0, nil
	}
	d, err := connector.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("'%s': %v (write e.g. '0 s', '5 s' or '1 min')", key, err)
	}
	return d.Milliseconds(), nil
}

// ValidateSetting checks a SET value for a key wsql reads, so a bad value
// fails at SET rather than at the next query.
func ValidateSetting(key, value string) error {
	get := func(k string) (string, bool) {
		if k == key {
			return value, true
		}
		return "", false
	}
	_, err := ParseEmit(get)
	return err
}

func (e Emit) String() string {
	var parts []string
	if e.Strategy.EarlyFire {
		parts = append(parts, "early fire every "+delayText(e.Strategy.EarlyFireDelay))
	}
	if e.Strategy.LateFire && e.AllowedLateness > 0 {
		parts = append(parts, "late fire every "+delayText(e.Strategy.LateFireDelay))
	}
	if len(parts) == 0 {
		return "on window end"
	}
	return strings.Join(parts, ", ")
}

func delayText(ms int64) string {
	if ms == 0 {
		return "row"
	}
	return Millis(ms)
}
