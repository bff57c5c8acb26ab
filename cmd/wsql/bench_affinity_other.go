//go:build !linux

package main

import (
	"errors"
	"os/exec"
)

var errNoAffinity = errors.New("--scaling runs each query on chosen CPUs, which wsql bench does on Linux only")

func benchCPUs() ([]int, error) { return nil, errNoAffinity }

func startOnCPUs(*exec.Cmd, []int) error { return errNoAffinity }
