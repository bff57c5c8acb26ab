package pipeline

import (
	"math"
	"testing"
)

func TestWatermarkGateLetsOnlyAdvancingWatermarksThrough(t *testing.T) {
	var g WatermarkGate
	for _, c := range []struct {
		wm   int64
		want bool
	}{{math.MinInt64, true}, {5, true}, {5, false}, {4, false}, {6, true}, {math.MinInt64, false}} {
		if got := g.Advance(c.wm); got != c.want {
			t.Errorf("Advance(%d) = %v, want %v", c.wm, got, c.want)
		}
	}
}
