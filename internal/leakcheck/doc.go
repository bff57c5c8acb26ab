// Package leakcheck checks, in the module's tests, that what a run
// started has ended: no goroutine is left behind after an error, a
// panic, a cancellation or Close.
package leakcheck
