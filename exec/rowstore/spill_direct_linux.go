package rowstore

import (
	"os"
	"syscall"
)

// openDirect opens path for writes past the page cache (O_DIRECT), nil
// where its file system does not do them (tmpfs).
func openDirect(path string) *os.File {
	f, err := os.OpenFile(path, os.O_WRONLY|syscall.O_DIRECT, 0)
	if err != nil {
		return nil
	}
	return f
}

// adviseRandomReads tells the system that f's reads are scattered: a
// spilled row is a few bytes of a column here and there, and the read
// ahead of them would fill the page cache with bytes no one reads.
func adviseRandomReads(f *os.File) {
	const random = 1 // POSIX_FADV_RANDOM
	_, _, _ = syscall.Syscall6(syscall.SYS_FADVISE64, f.Fd(), 0, 0, random, 0, 0)
}
