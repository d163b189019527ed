package http

import (
	"context"
	"time"
)

// SetProgressEvery makes danger maps report their progress every d, so that a test sees
// several reports of a map that takes a few hundred milliseconds; it returns the undo.
func SetProgressEvery(d time.Duration) func() {
	old := progressEvery
	progressEvery = d
	return func() { progressEvery = old }
}

// HoldHeavy takes every heavy place, as a flood of heavy work would, until the undo is
// called.
func (s *Server) HoldHeavy() func() {
	n := int64(s.limits.Heavy)
	_ = s.heavy.Acquire(context.Background(), n)
	return func() { s.heavy.Release(n) }
}
