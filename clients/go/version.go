package jiguangsandbox

// Version is the client's version: the sandbox's own (its package.json), so that a client and a
// server of one release agree on what each call means.
const Version = "0.1.0"

// majorMinor is "0.1" of "0.1.0": what must agree with the sandbox's.
func majorMinor(version string) string {
	dots := 0
	for i, c := range version {
		if c == '.' {
			dots++
			if dots == 2 {
				return version[:i]
			}
		}
	}
	return version
}
