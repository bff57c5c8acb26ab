package wsql

import (
	"fmt"
	"sort"
	"time"

	"github.com/wsql/wsql/planner/setting"
	"github.com/wsql/wsql/sql"
)

// settings are the session's SET keys. Flink accepts any key; wsql does
// too, and says when a key has no effect in wsql so nothing is silently
// ignored. The keys wsql reads, their defaults and checks are the table of
// planner/settings.go.
type settings struct {
	values   map[string]string
	location *time.Location
}

func newSettings() *settings {
	return &settings{values: map[string]string{}, location: time.Local}
}

func (r *runner) set(s *sql.Set) error {
	st := r.e.settings
	if s.Key == "" {
		return r.table([]string{"key", "value"}, st.list())
	}
	set, known := setting.Lookup(s.Key, setting.ScopeSession)
	if !known {
		r.notice(s.At, fmt.Sprintf("'%s' has no effect in wsql yet%s", s.Key, sql.DidYouMean(s.Key, setting.Keys(setting.ScopeSession))))
	}
	if err := set.Check(s.Value); err != nil {
		return sql.Errorf(sql.ErrInvalid, s.At, "%v", err)
	}
	if s.Key == setting.LocalTimeZone {
		st.location, _ = setting.LoadZone(s.Value) // checked above
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
	if s.Key == setting.LocalTimeZone {
		st.location = time.Local
	}
	return nil
}

// list returns every setting with a default or set, sorted by key.
func (st *settings) list() [][]string {
	all := map[string]string{}
	for _, s := range setting.All() {
		if s.Scope&setting.ScopeSession != 0 && s.Default != "" {
			all[s.Key] = s.Default
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

// get returns a setting's value as SET gave it.
func (st *settings) get(key string) (string, bool) {
	v, ok := st.values[key]
	return v, ok
}
