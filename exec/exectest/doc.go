// Package exectest holds what the tests of several sources share to run
// a job over their input: rows of events as CSV text and a windowed count
// over them. It imports exec, so exec's own tests cannot use it.
package exectest
