package exec

// InputWaiter is a BatchReader whose reads may wait for input not come yet
// (standard input, a followed file); it calls flush before such a read or
// wait. A window on several goroutines forwards its partitions' results a
// step later, so the driver decodes the next batch meanwhile; on input that
// pauses, that step is the next input, which the results of the windows the
// last rows closed would wait for. flush forwards them.
type InputWaiter interface{ BeforeWait(flush func()) }

// flushBeforeWait gives the reader, if it may wait for input, the flush of
// the window stages' results; a flush's error goes to *failed.
func (p *chain) flushBeforeWait(failed *error) {
	if w, ok := p.reader.(InputWaiter); ok {
		w.BeforeWait(func() {
			for _, s := range p.windows {
				if d, ok := s.(interface{ drain() error }); ok && *failed == nil {
					*failed = d.drain()
				}
			}
		})
	}
}
