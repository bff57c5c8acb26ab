// Package progress holds what a running job reports about itself between
// batches, for the status line and the monitoring server (wsql run
// --serve): the Snapshot the job driver (package exec) takes on the job's
// goroutine, the Query it describes, and the LagReporter a source
// implements when it knows how far behind its splits are. Only data and
// one interface: the driver fills them, sources and monitors read them.
package progress
