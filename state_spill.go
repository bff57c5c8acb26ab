package wsql

import "github.com/wsql/wsql/planner/setting"

// spillAfter is 'wsql.state.spill-after' in bytes, its default when unset.
func (r *runner) spillAfter() int64 {
	v, ok := r.e.settings.get(setting.StateSpillAfter)
	if !ok {
		v = setting.DefaultSpillAfter
	}
	n, _ := setting.ParseSpillAfter(v) // checked by SET
	return n
}
