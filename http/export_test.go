package http

import "time"

// SetProgressEvery makes danger maps report their progress every d, so that a test sees
// several reports of a map that takes a few hundred milliseconds; it returns the undo.
func SetProgressEvery(d time.Duration) func() {
	old := progressEvery
	progressEvery = d
	return func() { progressEvery = old }
}
