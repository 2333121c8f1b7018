//go:build !unix

package procgroup

import "os/exec"

// Set does nothing where process groups do not exist.
func Set(*exec.Cmd) {}

// Kill kills cmd's process.
func Kill(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
	}
}
