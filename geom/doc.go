// Package geom is the flat geometry of a wargames table: points, segments,
// round bases, terrain footprints and arcs of fire.
//
// # Conventions
//
// Table coordinates put X to the right and Y up the table ("north"). Units are
// whatever the caller measures in (inches on most tabletops); geom never
// converts them.
//
// Headings and bearings are compass degrees: 0 points along +Y, 90 along +X,
// and angles grow clockwise. Functions that return an angle normalise it into
// [0, 360) (see [NormDeg]); functions that take one accept any value.
//
// Heights, where other packages need them, are in the same unit as X and Y,
// with 0 at the table surface.
//
// # Tolerances
//
// Measurements on a table are never exact, and neither is float64. A point
// within [Tolerance] of a polygon's boundary counts as on the boundary, and a
// bearing within [AngleTolerance] of an arc's edge counts as on the edge. Both
// are far below anything a player could measure, so they only decide cases
// that are exact ties on paper.
package geom
