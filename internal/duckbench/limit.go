package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/wsql/wsql/internal/cputime"
)

// The "where the limit is" measurements: how long the file takes to read
// from the page cache, and to split into fields with no parsing at all. No
// CSV engine reads the file faster than the first, and none that looks at
// every byte of it faster than the second: they put wsql's time in scale.

// readChunk is the size of each read, as a decoder reads its input.
const readChunk = 4 << 20

// readFile reads the file from start to end with workers goroutines, each
// its equal share of the bytes in readChunk reads into one buffer, and
// returns the bytes read.
func readFile(path string, workers int) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, err
	}
	size := fi.Size()
	counts := make([]int64, workers)
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			from, to := size*int64(w)/int64(workers), size*int64(w+1)/int64(workers)
			buf := make([]byte, readChunk)
			for off := from; off < to; {
				n, err := f.ReadAt(buf[:min(int64(len(buf)), to-off)], off)
				off += int64(n)
				counts[w] += int64(n)
				if err == io.EOF && off < to {
					errs[w] = io.ErrUnexpectedEOF
					return
				}
				if err != nil && err != io.EOF {
					errs[w] = err
					return
				}
			}
		})
	}
	wg.Wait()
	var total int64
	for w := range workers {
		if errs[w] != nil {
			return 0, errs[w]
		}
		total += counts[w]
	}
	return total, nil
}

// splitFields counts the fields of data, a file in memory, with workers
// goroutines over equal shares cut at line ends: each line found with
// bytes.IndexByte of '\n', and its ',' with bytes.IndexByte too. This
// finds where every field is, as a decoder must, and parses nothing.
func splitFields(data []byte, workers int) int64 {
	counts := make([]int64, workers)
	var wg sync.WaitGroup
	from := 0
	for w := range workers {
		to := len(data)
		if w < workers-1 {
			to = len(data) * (w + 1) / workers
			if nl := bytes.IndexByte(data[to:], '\n'); nl >= 0 {
				to += nl + 1
			} else {
				to = len(data)
			}
			to = max(to, from)
		}
		part := data[from:to]
		from = to
		wg.Go(func() { counts[w] = countFields(part) })
	}
	wg.Wait()
	var total int64
	for _, c := range counts {
		total += c
	}
	return total
}

// countFields counts the fields of the lines of b.
func countFields(b []byte) int64 {
	var n int64
	for len(b) > 0 {
		end := bytes.IndexByte(b, '\n')
		if end < 0 {
			end = len(b)
		}
		line := b[:end]
		n++
		for {
			c := bytes.IndexByte(line, ',')
			if c < 0 {
				break
			}
			n++
			line = line[c+1:]
		}
		b = b[min(end+1, len(b)):]
	}
	return n
}

// A limitStep is one of the measurements of the limit, run once per call.
type limitStep struct {
	name, what string
	run        func() (int64, error) // what it counted: bytes or fields
	want       int64                 // the count it must reach
}

// limitSteps are the reads and splits of the file, with one goroutine and
// with two (the cores the targets are stated for). The splits work on the
// file read into memory beforehand, of rows rows.
func limitSteps(path string, data []byte, rows int64) []limitStep {
	var steps []limitStep
	for _, w := range []int{1, 2} {
		steps = append(steps, limitStep{
			name: fmt.Sprintf("read-%d", w),
			what: fmt.Sprintf("bytes: the file read from the page cache in %d MiB reads, %d goroutine(s)", readChunk>>20, w),
			run:  func() (int64, error) { return readFile(path, w) },
			want: int64(len(data)),
		})
	}
	for _, w := range []int{1, 2} {
		steps = append(steps, limitStep{
			name: fmt.Sprintf("split-%d", w),
			what: fmt.Sprintf("fields: the file in memory split at ',' and '\\n' (bytes.IndexByte), %d goroutine(s)", w),
			run:  func() (int64, error) { return splitFields(data, w), nil },
			want: 3 * rows, // ts, key, value
		})
	}
	return steps
}

// timeStep runs a step in this process and measures its wall time and the
// process's CPU time over it.
func timeStep(s limitStep) (measure, int64, error) {
	cpu0, start := cputime.Process(), time.Now()
	n, err := s.run()
	return measure{wall: time.Since(start), cpu: cputime.Process() - cpu0}, n, err
}

// A limit is one step of the limit measured over its runs.
type limit struct {
	step  limitStep
	count int64 // bytes read or fields found
	m     side
}

// measureLimit reads the file into memory (for the splits), then runs
// each step runs times, the steps in turn. The counts are checked: every
// byte read, three fields a row.
func measureLimit(csv string, rows int64, runs int, stderr io.Writer) ([]limit, error) {
	data, err := os.ReadFile(csv)
	if err != nil {
		return nil, err
	}
	steps := limitSteps(csv, data, rows)
	ms := make([][]measure, len(steps))
	counts := make([]int64, len(steps))
	for i := range runs {
		for j, s := range steps {
			m, n, err := timeStep(s)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", s.name, err)
			}
			counts[j] = n
			ms[j] = append(ms[j], m)
			fmt.Fprintf(stderr, "%s run %d/%d: %s wall, %s CPU\n", s.name, i+1, runs,
				m.wall.Round(time.Millisecond), m.cpu.Round(time.Millisecond))
		}
	}
	var out []limit
	for j, s := range steps {
		if counts[j] != s.want {
			return nil, fmt.Errorf("%s counted %d, want %d", s.name, counts[j], s.want)
		}
		out = append(out, limit{step: s, count: counts[j], m: summarize(ms[j])})
	}
	return out, nil
}
