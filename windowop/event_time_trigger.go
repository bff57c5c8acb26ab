package windowop

// EventTimeTrigger is the default trigger of event-time windows: it fires
// once the watermark passes the window's maxTimestamp (Flink's
// EventTimeTrigger).
type EventTimeTrigger struct{}

// OnElement fires at once if the watermark is already past the window (only
// possible for a window kept alive by allowed lateness) and otherwise asks
// for a timer at maxTimestamp.
func (EventTimeTrigger) OnElement(w Window, ctx TriggerContext) TriggerResult {
	if ctx.ToEpoch(w.MaxTimestamp()) <= ctx.CurrentWatermark() {
		return Fire
	}
	ctx.RegisterEventTimeTimer(w.MaxTimestamp())
	return Continue
}

// OnEventTime fires for the window's own timer and ignores others (such as
// the cleanup timer of an allowed-lateness window).
func (EventTimeTrigger) OnEventTime(time int64, w Window, ctx TriggerContext) TriggerResult {
	if time == ctx.ToEpoch(w.MaxTimestamp()) {
		return Fire
	}
	return Continue
}

func (EventTimeTrigger) String() string { return "EventTimeTrigger" }

var _ Trigger = EventTimeTrigger{}
