package textsource

import "time"

// followPollFirst is how soon a followed file is read again after a read
// found nothing new that came right after new data.
const followPollFirst = time.Millisecond

// followPoll is when a followed file is read next for appended lines.
// Waiting the whole 'source.monitor-interval' between two reads would
// hold every appended line, and the windows it closes, up to that long
// (a second, typically): instead a file that had new data is read again
// after 1 ms, and each read that finds nothing doubles the wait, up to the
// interval. A file written to all the time is then read within a
// millisecond or two of each write, while an idle one costs no more reads
// (and checks for rotation) than one an interval after a few seconds. The
// directory is still listed for new files once an interval.
type followPoll struct {
	wait time.Duration // the last wait; 0 after new data
	due  time.Time     // zero: read at once
}

// ready reports whether the file is due to be read at now.
func (p *followPoll) ready(now time.Time) bool { return !now.Before(p.due) }

// found records new data: the file is read again at once.
func (p *followPoll) found() { *p = followPoll{} }

// nothing records a read that found nothing new at now: the next is
// twice as far off as the last, within [followPollFirst, interval].
func (p *followPoll) nothing(now time.Time, interval time.Duration) {
	p.wait = min(max(2*p.wait, followPollFirst), interval)
	p.due = now.Add(p.wait)
}
