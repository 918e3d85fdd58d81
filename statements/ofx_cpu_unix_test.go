//go:build unix

package statements

import (
	"syscall"
	"time"
)

// cpuSpent is the processor time the test process spends in fn. The machines tests run
// on are shared, so wall time says more about the neighbours than about the parser.
func cpuSpent(fn func()) time.Duration {
	now := func() time.Duration {
		var ru syscall.Rusage
		if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
			panic(err)
		}
		return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	}
	start := now()
	fn()
	return now() - start
}
