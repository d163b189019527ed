//go:build unix

package opponent

import "syscall"

// cpuTime is the CPU time this process has used, user and system, in milliseconds, over
// all its threads: what planning costs whatever else the machine is running. Zero if
// the system will not say.
func cpuTime() float64 {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	ms := func(t syscall.Timeval) float64 { return float64(t.Sec)*1000 + float64(t.Usec)/1000 }
	return ms(u.Utime) + ms(u.Stime)
}
