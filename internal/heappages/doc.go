// Package heappages asks Linux to back the Go heap's next pages with
// transparent huge pages, for the wsql command.
//
// A first touch of a 4 KiB page costs about 10 µs on the machines the
// benchmarks run on, and a windowed query touches every page of its heap
// once as the heap grows: 17,800 faults in the Nexmark suite's q11, about
// 30% of its CPU. The Go runtime does not advise its heap, and it maps
// each growth with MAP_FIXED, which drops any advice given to the
// reserved range before; where THP is "madvise" (a common setting, and
// the benchmark machine's), the heap gets 4 KiB pages. Advising the pages
// once the runtime has mapped them is what works: Advise allocates a large
// block, which the runtime maps right after the heap's end, advises its
// range, drops it and collects. The collection frees the block, and the
// heap's next spans are carved from those pages, which now fault in 2 MiB
// at a time.
//
// Only the command calls it, from an initialiser (internal/startgc/atinit),
// so that the initialisers that run after it allocate in huge pages too:
// it changes how the whole process's memory is backed, which a program
// embedding the Go API decides for itself.
package heappages
