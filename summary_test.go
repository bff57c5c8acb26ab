package wsql

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/wsql/wsql/exec"
	"github.com/wsql/wsql/windowop"
)

// A counter has one name from the operator that counts it to the Summary
// the Go API returns: every counter of the operators' stats, the job's
// stats and its progress is a Summary field of the same name and type,
// except the few a layer keeps for itself.
func TestCountersHaveOneNameAtEveryLayer(t *testing.T) {
	summary := map[string]reflect.Type{}
	for _, f := range reflect.VisibleFields(reflect.TypeOf(Summary{})) {
		summary[f.Name] = f.Type
	}
	own := map[string]bool{
		"RowsIn":      true, // rows an operator received, after WHERE: not the rows read
		"Watermark":   true, // the job's last watermark
		"OpenWindows": true, // the progress line's window states
		"Lateness":    true, // the late rows' histogram: Summary.Late reports what it says
		// what a running query holds now, for monitoring (wsql run --serve)
		"HasOpenWindows": true, "StateBytes": true, "HasStateBytes": true,
		"Splits": true, "Lags": true, "Checkpoint": true, "Err": true,
	}
	for _, v := range []any{windowop.Stats{}, windowop.CountStats{}, exec.Stats{}, exec.Progress{}} {
		for _, f := range reflect.VisibleFields(reflect.TypeOf(v)) {
			if own[f.Name] {
				continue
			}
			typ, ok := summary[f.Name]
			require.True(t, ok, "%T.%s is named differently in Summary", v, f.Name)
			require.Equal(t, typ, f.Type, "%T.%s", v, f.Name)
		}
	}
}
