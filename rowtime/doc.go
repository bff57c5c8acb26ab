// Package rowtime owns event time: reading the rowtime column, generating
// watermarks from it, and the constants that bound time.
//
// A watermark is an int64 epoch-millisecond promise that no row with an
// earlier event time is still expected. wsql generates watermarks "on event",
// deterministically: the watermark in effect when a row arrives is the one
// computed from every row before it, never from wall-clock timing or batch
// boundaries. Inside a batch the generator therefore produces one watermark
// per row (a prefix maximum), so results are identical whether the input is
// cut into batches of 1 row or 4096.
//
// A source made of splits (the files of a directory) keeps one generator per
// split and combines them in a CombinedWatermark: the minimum over the splits
// still active, so a split whose event times lag never finds the watermark
// already past its rows. A split that ended or went idle stops holding the
// others back; idleness is processing time, read from an injected Clock once
// per batch. Within a batch, CombineRows gives each row the combined
// watermark it would see if rows came one at a time, so this too is
// independent of batch size.
//
// The package knows nothing of SQL: the planner turns a table's
// `WATERMARK FOR ts AS ts - INTERVAL ...` into a BoundedOutOfOrderness
// generator, and exec drives it over the batches a source reads.
package rowtime
