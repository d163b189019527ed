package geom

import (
	"math"
	"strconv"
	"strings"
)

// An Arc is a set of the four 90° quadrants around a model's facing, as a
// bit mask: a weapon mount's arc of fire, or the quadrant(s) a target stands
// in. The zero Arc is the empty set.
type Arc uint8

// The four quadrants. Each spans 90°, centred on the facing (front), 90°
// clockwise of it (right), opposite it (rear) and 90° anticlockwise (left).
const (
	ArcFront Arc = 1 << iota // within 45° either side of the facing
	ArcRight                 // 45° to 135° clockwise of the facing
	ArcRear                  // within 45° either side of straight behind
	ArcLeft                  // 45° to 135° anticlockwise of the facing
)

// ArcSide is both flank quadrants, left and right.
const ArcSide = ArcLeft | ArcRight

// ArcAll is all four quadrants: all-round fire.
const ArcAll = ArcFront | ArcRight | ArcRear | ArcLeft

// quadrantHalfWidth is half of a quadrant: each one reaches 45° either side
// of its centre line.
const quadrantHalfWidth = 45

// Quadrants returns the quadrant(s) of a model at from, facing compass
// bearing facing, that contain the point to. Quadrant edges are inclusive
// (within [AngleTolerance]), so a point exactly on a 45° boundary lies in
// both neighbouring quadrants. A point equal to from lies in all four.
func Quadrants(facing float64, from, to Vec) Arc {
	if to == from {
		return ArcAll
	}
	// rel is where the target lies relative to the facing, in (−180, 180],
	// clockwise positive.
	rel := AngleDiff(facing, Bearing(from, to))
	const (
		lo = quadrantHalfWidth - AngleTolerance
		hi = 180 - quadrantHalfWidth + AngleTolerance
	)
	var a Arc
	if math.Abs(rel) <= quadrantHalfWidth+AngleTolerance {
		a |= ArcFront
	}
	if rel >= lo && rel <= hi {
		a |= ArcRight
	}
	if math.Abs(rel) >= 180-quadrantHalfWidth-AngleTolerance {
		a |= ArcRear
	}
	if rel <= -lo && rel >= -hi {
		a |= ArcLeft
	}
	return a
}

// Contains reports whether the point to lies in any of a's quadrants for a
// model at from facing facing (see [Quadrants]).
func (a Arc) Contains(facing float64, from, to Vec) bool {
	return Quadrants(facing, from, to)&a != 0
}

// String returns a's quadrants the way arcs of fire are written: F (front),
// SL or SR (one side), S (both sides) and R (rear), joined by "/" in that
// order, e.g. "F/SR" or "F/S/R" for all round. The empty Arc is "none"; bits
// outside ArcAll give "Arc(n)".
func (a Arc) String() string {
	switch {
	case a == 0:
		return "none"
	case a&^ArcAll != 0:
		return "Arc(" + strconv.Itoa(int(a)) + ")"
	}
	parts := make([]string, 0, 3)
	if a&ArcFront != 0 {
		parts = append(parts, "F")
	}
	switch a & ArcSide {
	case ArcSide:
		parts = append(parts, "S")
	case ArcLeft:
		parts = append(parts, "SL")
	case ArcRight:
		parts = append(parts, "SR")
	}
	if a&ArcRear != 0 {
		parts = append(parts, "R")
	}
	return strings.Join(parts, "/")
}

// InSector reports whether the point to lies within halfWidth degrees either
// side of bearing facing, seen from from: a sector of 2×halfWidth degrees,
// such as a 60° artillery arc (halfWidth 30). Edges are inclusive (within
// [AngleTolerance]); halfWidth >= 180 takes in everything. A point equal to
// from lies in every sector, as in [Quadrants].
func InSector(facing, halfWidth float64, from, to Vec) bool {
	if to == from {
		return true
	}
	return math.Abs(AngleDiff(facing, Bearing(from, to))) <= halfWidth+AngleTolerance
}
