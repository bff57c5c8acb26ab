package joinop

// A join's output batch carries the watermark each row goes out under
// (pipeline.Batch.Watermarks): the one the input row that made it came
// under, so a CURRENT_WATERMARK or a merge after the join sees the same
// watermarks at every batch size. The slice is nil when every row goes
// out under the watermark the join last forwarded, and is filled a run
// of rows at a time, the rows one input row made sharing its watermark.

// fillWatermarks is *buf resized to n entries, each wm.
func fillWatermarks(buf *[]int64, n int, wm int64) []int64 {
	w := (*buf)[:0]
	for range n {
		w = append(w, wm)
	}
	*buf = w
	return w
}
