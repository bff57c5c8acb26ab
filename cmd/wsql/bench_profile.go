package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// startBenchProfile starts a CPU profile of this process when it is a
// child of `wsql bench --cpuprofile DIR`, which names the file in
// benchProfileEnv; the returned func stops it. Anywhere else it does
// nothing.
func startBenchProfile() (stop func()) {
	path := os.Getenv(benchProfileEnv)
	if path == "" || os.Getenv(benchChildEnv) != "1" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		fmt.Fprintf(os.Stderr, "wsql: CPU profile: %v\n", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		fmt.Fprintf(os.Stderr, "wsql: CPU profile: %v\n", err)
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
