//go:build !unix

package agent

import "os/exec"

// setProcessGroup does nothing where process groups do not exist.
func setProcessGroup(*exec.Cmd) {}

// killProcess kills the agent's process.
func killProcess(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
