package main

import (
	"fmt"
	"os/exec"
	"runtime"

	"golang.org/x/sys/unix"
)

// benchCPUs is the CPUs this process may run on, in order.
func benchCPUs() ([]int, error) {
	var set unix.CPUSet
	if err := unix.SchedGetaffinity(0, &set); err != nil {
		return nil, fmt.Errorf("reading the CPUs this process may run on: %w", err)
	}
	var cpus []int
	for c := 0; c < len(set)*64; c++ {
		if set.IsSet(c) {
			cpus = append(cpus, c)
		}
	}
	return cpus, nil
}

// startOnCPUs starts cmd so that it and every thread it makes run on cpus
// alone: the child inherits the CPU affinity of the thread that forks it,
// so this goroutine's thread takes that affinity for the fork and then
// gets its own back.
func startOnCPUs(cmd *exec.Cmd, cpus []int) error {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var old, pinned unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		return err
	}
	for _, c := range cpus {
		pinned.Set(c)
	}
	if err := unix.SchedSetaffinity(0, &pinned); err != nil {
		return fmt.Errorf("running on CPUs %v: %w", cpus, err)
	}
	startErr := cmd.Start()
	if err := unix.SchedSetaffinity(0, &old); err != nil {
		// the thread keeps the narrow set: let it end with the goroutine
		// rather than run other goroutines there (LockOSThread without
		// UnlockOSThread ends the thread when the goroutine exits)
		runtime.LockOSThread()
	}
	return startErr
}
