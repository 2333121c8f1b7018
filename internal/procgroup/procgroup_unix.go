//go:build unix

package procgroup

import (
	"os/exec"
	"syscall"
)

// Set starts cmd in a process group of its own, so that Kill reaches the
// children it started too.
func Set(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// Kill kills cmd's process group, and cmd.
func Kill(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	_ = cmd.Process.Kill()
}
