package windowop

// TriggerResult is what a trigger decides for a window (Flink's
// TriggerResult): whether to emit the window's result and whether to purge
// its state.
type TriggerResult uint8

const (
	Continue TriggerResult = iota
	Fire
	Purge
	FireAndPurge
)

// IsFire reports whether the result emits the window.
func (r TriggerResult) IsFire() bool { return r == Fire || r == FireAndPurge }

// IsPurge reports whether the result clears the window's state.
func (r TriggerResult) IsPurge() bool { return r == Purge || r == FireAndPurge }

func (r TriggerResult) String() string {
	return [...]string{"CONTINUE", "FIRE", "PURGE", "FIRE_AND_PURGE"}[r]
}

// TriggerContext is what a trigger may see and do for one key's window.
// Windows may be aligned in a time zone (their bounds are local wall-clock
// times) while watermarks and timers are epoch instants: ToEpoch converts.
type TriggerContext interface {
	CurrentWatermark() int64
	ToEpoch(local int64) int64
	// RegisterEventTimeTimer asks for a timer at a window-local time.
	RegisterEventTimeTimer(local int64)
}

// Trigger decides when a window emits. The operator calls OnElement when a
// row opens a window's state and OnEventTime when one of the window's timers
// fires; calls happen per window, never per row.
type Trigger interface {
	OnElement(w Window, ctx TriggerContext) TriggerResult
	OnEventTime(time int64, w Window, ctx TriggerContext) TriggerResult
	String() string
}
