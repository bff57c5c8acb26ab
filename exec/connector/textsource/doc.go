// Package textsource reads text through a format (exec/format's decoders)
// as the splits of a source: a file or a directory of files, one split
// each, read interleaved round-robin and, with 'source.monitor-interval',
// followed as they grow; or a stream (standard input, an io.Reader a Go
// program attached) read as one split. A read of files records its
// position in a checkpoint and resumes from it. The filesystem, stdin and
// go connectors plan their reads as a Source.
package textsource
