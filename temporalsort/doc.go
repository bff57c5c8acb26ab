// Package temporalsort is Flink's temporal sort: ORDER BY a time attribute
// ascending (then other columns) on a stream. Rows are held until the
// watermark passes their time, then released in (time, other keys) order,
// so the output is append-only; a row that arrives with its time already
// passed by the watermark is late and dropped, as Flink drops it. The rows
// stay in Arrow form; the operator's buffer is checkpointed as Arrow IPC.
package temporalsort
