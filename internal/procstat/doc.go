// Package procstat reads what the system reports of processes for the
// benchmarks: an ended child's peak resident set size and CPU time, and
// the CPU's model. wsql bench and internal/duckbench measure their
// children with it, so both report the same figures the same way.
package procstat
