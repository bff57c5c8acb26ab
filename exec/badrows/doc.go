// Package badrows is the dead-letter file of 'wsql.bad-rows.path': the
// rows a read skips, as read, one per line, and the rows the watermark
// assigner drops for their event time, each after a '#' line with its
// reason. Its length is part of a checkpoint, and a restored read cuts it
// back to that length.
package badrows
