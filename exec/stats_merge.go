package exec

// Merge adds the counts of o, the stats of another run of the same query
// (a scaled-out query runs once per partition): the elapsed time is the
// longest; the watermark, each run's own, is left as it is.
func (s *Stats) Merge(o *Stats) {
	s.RowsRead += o.RowsRead
	s.BadRowsSkipped += o.BadRowsSkipped
	s.LateRowsDropped += o.LateRowsDropped
	s.LateForWindow += o.LateForWindow
	s.NoWindowRows += o.NoWindowRows
	s.ResultRows += o.ResultRows
	s.Elapsed = max(s.Elapsed, o.Elapsed)
	s.FilesRotated += o.FilesRotated
	s.FilesTruncated += o.FilesTruncated
	s.UnfilledCountRows += o.UnfilledCountRows
	s.Lateness.Merge(&o.Lateness)
	s.StateExpired += o.StateExpired
	s.StateSpilled += o.StateSpilled
}
