//go:build !unix

package opponent

// cpuTime is zero where the process's CPU time is not read: a tourney's CPU
// percentiles are then zero too.
func cpuTime() float64 { return 0 }
