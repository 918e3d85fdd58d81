//go:build !unix

package statements

import "time"

// cpuSpent falls back to wall time where getrusage is not available.
func cpuSpent(fn func()) time.Duration {
	start := time.Now()
	fn()
	return time.Since(start)
}
