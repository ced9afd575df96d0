//go:build linux

package jiguangsandbox

import (
	"os/exec"
	"syscall"
)

// dieWithParent makes the kernel send the sandbox SIGTERM when the thread that started it ends,
// which runCommand keeps until the process has ended: so it goes with the test binary however the
// binary ends (a test's os.Exit, a panic, go test's timeout, SIGKILL), not only through Close.
func dieWithParent(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
}
