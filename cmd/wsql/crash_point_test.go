package main

import (
	"fmt"
	"os"

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
