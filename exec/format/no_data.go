package format

import "errors"

// ErrNoData is what a followed file returns at its current end instead of
// io.EOF: the decoders hand out the rows they have (maybe none) and keep
// any partial line for when the rest arrives.
var ErrNoData = errors.New("no data yet")
