package progress

import "time"

// Snapshot is a running job's progress, taken on the job's goroutine
// between two batches, so it reads every stage without locks. A number a
// query shape does not have is marked absent, never guessed.
type Snapshot struct {
	RowsRead        int64
	ResultRows      int64 // rows the job wrote to its sink or writer
	BadRowsSkipped  int64
	LateRowsDropped int64
	Watermark       int64 // rowtime.MinWatermark before the first
	OpenWindows     int   // (key, window) states held by the innermost window
	// HasOpenWindows says the innermost stage is a window operator that
	// counts its windows; OpenWindows is 0 otherwise.
	HasOpenWindows bool
	// StateBytes estimates the state held: the window operators' and the
	// rows kept by joins, Top-N and OVER (exec/rowstore). HasStateBytes
	// is false when no stage of the job measures its state.
	StateBytes    int64
	HasStateBytes bool
	// Splits are the watermarks of the source's splits, when the job has
	// event time computed from rows or supplied by the source.
	Splits []Split
	// Lags are how far the source's splits are behind the end of what
	// their source holds, when the source knows (LagReporter).
	Lags []SplitLag
	// Checkpoint describes the last checkpoint the run took; nil before
	// the first and without checkpoints.
	Checkpoint *Checkpoint
	Elapsed    time.Duration
	// Err is set in the last call of a run that failed or was stopped (a
	// cancelled context), which holds nothing else: the error it ended
	// with. Every other snapshot has nil.
	Err error
}

// Split is one split's own watermark, as the combined watermark sees it.
type Split struct {
	Split     int
	Watermark int64 // rowtime.MinWatermark before the split's first row
	Idle      bool  // left out of the combined watermark for now
}

// Checkpoint describes a checkpoint once it is durable.
type Checkpoint struct {
	ID       uint64
	Done     time.Time     // when it was durable
	Duration time.Duration // from the start of taking it until durable
	Bytes    int64         // the size of the checkpoint file
}

// Query describes a query as it starts to run (wsql.Output.OnQueryStart).
type Query struct {
	// Number is the query's number among the queries of its script, from
	// 1, as checkpoints and the run's messages number them.
	Number int
	// SQL is the statement as wsql prints it back (canonical Flink SQL);
	// for a statement set, its INSERTs inside EXECUTE STATEMENT SET.
	SQL string
	// Plan is the query's EXPLAIN text.
	Plan string
}
