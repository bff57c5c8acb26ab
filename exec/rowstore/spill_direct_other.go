//go:build !linux

package rowstore

import "os"

// openDirect is Linux's O_DIRECT, which this system lacks: the spill file
// is written through the page cache.
func openDirect(path string) *os.File { return nil }

func adviseRandomReads(f *os.File) {}
