package progress

// SplitLag is how far one split's read is behind the end of what its
// source holds now.
type SplitLag struct {
	Split int
	// Name is the split as its source names it (a Kafka partition:
	// "topic/partition").
	Name string
	// Records between the split's position and the source's end now (a
	// Kafka partition's high watermark minus the next offset handed out).
	Records int64
}

// LagReporter is a source's reader that knows how far behind each of its
// splits is: the Kafka source, from the high watermarks its polls return.
// SplitLags is called on the job's goroutine, between two reads; it
// leaves out the splits whose lag it does not know yet.
type LagReporter interface {
	SplitLags() []SplitLag
}
