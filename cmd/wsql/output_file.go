package main

import "os"

// outputFile is --output FILE, created (or truncated) at its first write
// rather than when wsql starts: the engine first checks that no query of
// the script reads FILE (an output must never overwrite an input), and a
// refused script leaves FILE as it was.
type outputFile struct {
	path string
	f    *os.File
	err  error // a failed create, returned by every later write
}

func (o *outputFile) Write(p []byte) (int, error) {
	if o.f == nil && o.err == nil {
		o.f, o.err = os.Create(o.path)
	}
	if o.err != nil {
		return 0, o.err
	}
	return o.f.Write(p)
}

// Close closes the file. A run that wrote nothing still leaves an empty
// file when it succeeded (complete is true), as an empty result should.
func (o *outputFile) Close(complete bool) error {
	if o.f == nil && o.err == nil && complete {
		o.f, o.err = os.Create(o.path)
	}
	if o.err != nil {
		return o.err // also when only EXPLAIN text, whose writes are not checked, failed
	}
	if o.f == nil {
		return nil // not created: the run failed first
	}
	return o.f.Close()
}
