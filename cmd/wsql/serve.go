package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/wsql/wsql"
	"github.com/wsql/wsql/monitor"
)

// shutdownWait is how long the monitoring server may take to answer the
// requests in flight once the queries have stopped.
const shutdownWait = 5 * time.Second

// serving is the monitoring server of --serve ADDR (docs/monitoring.md):
// metrics, health and the status page of the script's queries. A nil
// serving (no --serve) does nothing.
type serving struct {
	mon *monitor.Monitor
	srv *monitor.Server
}

// startServing listens on addr and hooks the monitor into out, so it
// learns about every query the script runs through out.
func startServing(addr string, out *wsql.Output, stderr io.Writer) (*serving, error) {
	mon := monitor.New()
	srv, err := mon.Serve(addr)
	if err != nil {
		return nil, err
	}
	mon.Observe(out)
	fmt.Fprintf(stderr, "wsql: serving metrics on http://%s/metrics and the status page on http://%s/\n", srv.Addr(), srv.Addr())
	return &serving{mon: mon, srv: srv}, nil
}

// ended records how a Run ended: a failure turns /healthz to 503.
func (s *serving) ended(err error) {
	if s != nil {
		s.mon.Ended(err)
	}
}

// close shuts the server down once the queries have stopped (their final
// checkpoint taken): requests in flight are answered first.
func (s *serving) close(stderr io.Writer) error {
	if s == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), shutdownWait)
	defer cancel()
	if err := s.srv.Shutdown(ctx); err != nil {
		fmt.Fprintf(stderr, "error: stopping the server on %s: %v\n", s.srv.Addr(), err)
		return err
	}
	fmt.Fprintf(stderr, "wsql: stopped serving on %s\n", s.srv.Addr())
	return nil
}
