package exec

// InputWaiter is a BatchReader whose reads may wait for input that has
// not come yet: standard input, a followed file. Before such a read (or
// wait) it calls the flush the driver gave it through BeforeWait.
//
// A window run on several goroutines ('parallelism.default') does not wait
// for its partitions after each step: their results go downstream at a
// later step, so the driver can decode the next batch meanwhile. On input
// that pauses, that later step is the next input, and the results of the
// windows the last rows closed would wait for it, a second or a minute.
// flush forwards them first. Its error, if any, ends the run after the
// step.
type InputWaiter interface {
	BeforeWait(flush func())
}

// flushBeforeWait gives the chain's reader, when it may wait for input, a
// flush of the results its window stages hold; the error of a flush is
// kept in *failed.
func (p *chain) flushBeforeWait(failed *error) {
	w, ok := p.reader.(InputWaiter)
	if !ok {
		return
	}
	w.BeforeWait(func() {
		if *failed != nil {
			return
		}
		for _, s := range p.windows {
			if d, ok := s.(interface{ drain() error }); ok {
				if err := d.drain(); err != nil {
					*failed = err
					return
				}
			}
		}
	})
}
