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

// outWatermarks collects an output batch's watermarks while its rows are
// made: extend after each input row gives the rows made since their
// watermark. Until a row's watermark is not the one last forwarded it
// only counts rows: most batches need no slice.
type outWatermarks struct {
	wms    []int64
	varies bool // some row's watermark is not the one last forwarded
	rows   int  // while !varies: the rows so far
}

// reset starts a batch.
func (o *outWatermarks) reset() {
	o.wms, o.varies, o.rows = o.wms[:0], false, 0
}

// extend gives the output rows up to n the watermark wm; sent is the
// watermark last forwarded.
func (o *outWatermarks) extend(n int, wm, sent int64) {
	if !o.varies {
		if wm == sent || n == o.rows {
			o.rows = n
			return
		}
		o.varies = true
		fillWatermarks(&o.wms, o.rows, sent)
	}
	for len(o.wms) < n {
		o.wms = append(o.wms, wm)
	}
}

// batch is the watermarks of the batch's first n rows, nil when every
// row goes out under the watermark last forwarded.
func (o *outWatermarks) batch(n int) []int64 {
	if !o.varies {
		return nil
	}
	return o.wms[:n]
}
