//go:build !linux

package jiguangsandbox

import "os/exec"

// dieWithParent: only Linux can tie a child's life to its parent's; elsewhere Main's Close stops it.
func dieWithParent(cmd *exec.Cmd) {}
