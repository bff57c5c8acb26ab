package monitor

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// sampleEvery is the interval between two points of the charts.
const sampleEvery = time.Second

// Server is the HTTP server of a Monitor.
type Server struct {
	m      *Monitor
	srv    *http.Server
	ln     net.Listener
	served chan error    // Serve's error once it returned
	stop   chan struct{} // closed by Shutdown: the sampling ends
	done   chan struct{} // closed when the sampling has ended
}

// Serve listens on addr (host:port; port 0 picks one) and serves m there
// until Shutdown. It listens before it returns, so a port in use is an
// error here, before any query runs.
func (m *Monitor) Serve(addr string) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--serve: %w", err)
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collector{m}, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /healthz", m.serveHealth)
	mux.HandleFunc("GET /api/queries", m.serveQueries)
	mux.Handle("GET /", pageHandler())
	s := &Server{m: m, ln: ln, served: make(chan error, 1), stop: make(chan struct{}), done: make(chan struct{}),
		srv: &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}}
	go func() { s.served <- s.srv.Serve(ln) }()
	go s.sampling()
	return s, nil
}

// Addr is the address the server listens on, with the port it picked.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// sampling adds a point to the charts every sampleEvery until Shutdown.
func (s *Server) sampling() {
	defer close(s.done)
	t := time.NewTicker(sampleEvery)
	defer t.Stop()
	for {
		select {
		case now := <-t.C:
			s.m.sample(now)
		case <-s.stop:
			return
		}
	}
}

// Shutdown stops the server: no new connections, requests in flight are
// answered (until ctx ends), then the listener and the sampling stop.
// Called once the queries have stopped, the last scrape sees their final
// numbers.
func (s *Server) Shutdown(ctx context.Context) error {
	close(s.stop)
	<-s.done
	err := s.srv.Shutdown(ctx)
	if serr := <-s.served; !errors.Is(serr, http.ErrServerClosed) && err == nil {
		err = serr
	}
	return err
}

// serveHealth answers 200 "ok" while no query failed, 503 with the error
// after one did.
func (m *Monitor) serveHealth(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	if failed := m.health(); failed != "" {
		w.WriteHeader(http.StatusServiceUnavailable)
		fmt.Fprintf(w, "failed: %s\n", failed)
		return
	}
	fmt.Fprintln(w, "ok")
}
