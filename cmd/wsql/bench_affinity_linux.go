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
	var old, pinned unix.CPUSet
	if err := unix.SchedGetaffinity(0, &old); err != nil {
		runtime.UnlockOSThread()
		return err
	}
	for _, c := range cpus {
		pinned.Set(c)
	}
	if err := unix.SchedSetaffinity(0, &pinned); err != nil {
		runtime.UnlockOSThread()
		return fmt.Errorf("running on CPUs %v: %w", cpus, err)
	}
	err := cmd.Start()
	if unix.SchedSetaffinity(0, &old) == nil {
		// else the narrowed thread stays locked and ends with this goroutine
		runtime.UnlockOSThread()
	}
	return err
}
