package main

import (
	"context"
	"fmt"
	"os"
	"sync"

	wexec "github.com/wsql/wsql/exec"
)

// crashAtEnv makes a child wsql (see TestMain) end itself at one step of
// one checkpoint: "step:n" (see exec.CrashPoint), as abruptly as SIGKILL:
// no deferred calls, no flushing of buffers.
const crashAtEnv = "WSQL_CRASH_AT"

func crashAt(at string) {
	wexec.CrashPoint = func(step string, id uint64) {
		if fmt.Sprintf("%s:%d", step, id) == at {
			os.Exit(137)
		}
	}
}

// pauseAtEnv makes a child wsql hold its run at its first periodic
// checkpoint (see exec.PausePoint) until the run is cancelled (SIGTERM),
// after creating the file the variable names to say it is there.
const pauseAtEnv = "WSQL_PAUSE_AT"

func pauseAt(marker string) {
	var once sync.Once
	wexec.PausePoint = func(ctx context.Context, id uint64) {
		once.Do(func() {
			if err := os.WriteFile(marker, []byte(fmt.Sprintln(id)), 0o644); err != nil {
				panic(err)
			}
			<-ctx.Done()
		})
	}
}
