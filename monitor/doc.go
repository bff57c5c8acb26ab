// Package monitor serves what a running wsql does over HTTP, for `wsql run
// --serve ADDR`: Prometheus metrics at /metrics, a health check at
// /healthz, the running queries as JSON at /api/queries and a status page
// at / that draws their throughput and watermark lag from that JSON.
//
// A Monitor learns about queries through the hooks of a wsql.Output
// (Observe): each query's start with its plan, its progress snapshots
// (wsql.Progress, the numbers the terminal's status line shows, taken on
// the query's goroutine between batches) and its summary. It keeps the
// latest snapshot per query and, once a second, a sample of throughput and
// watermark lag for the charts. Metrics are read from those snapshots when
// Prometheus scrapes (a custom Collector), so a number a query does not
// have is left out rather than reported as zero, and the watermark lag is
// measured against the time of the scrape.
//
// The page and its script are embedded (page/): the status page works
// without network access and draws its charts as SVG itself.
package monitor
