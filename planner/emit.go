package planner

import (
	"strings"

	"github.com/wsql/wsql/planner/setting"
	"github.com/wsql/wsql/windowop"
)

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
	if e.Strategy.EarlyFire, err = boolSetting(get, setting.EarlyFire); err != nil {
		return e, err
	}
	if e.Strategy.LateFire, err = boolSetting(get, setting.LateFire); err != nil {
		return e, err
	}
	if e.Strategy.EarlyFireDelay, err = durationSetting(get, setting.EarlyFireDelay); err != nil {
		return e, err
	}
	if e.Strategy.LateFireDelay, err = durationSetting(get, setting.LateFireDelay); err != nil {
		return e, err
	}
	lateness, err := durationSetting(get, setting.AllowLateness)
	if err != nil {
		return e, err
	}
	if e.Strategy.LateFire {
		e.AllowedLateness = lateness
	}
	e.LateDataPath, _ = get(setting.LateDataPath)
	return e, setting.CheckLateDataPath(e.LateDataPath)
}

// boolSetting reads a boolean setting; false when it is not set.
func boolSetting(get func(string) (string, bool), key string) (bool, error) {
	v, ok := get(key)
	if !ok {
		return false, nil
	}
	return setting.ParseBool(key, v)
}

// durationSetting reads a duration setting in milliseconds; 0 when it is
// not set.
func durationSetting(get func(string) (string, bool), key string) (int64, error) {
	v, ok := get(key)
	if !ok {
		return 0, nil
	}
	return setting.ParseDuration(key, v)
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
