// Package los answers line-of-sight questions over solid shapes with
// heights: does a straight line between two points pass through terrain, and
// how much of a model can be seen from an eye. It knows nothing of game rules
// (what counts as cover, how much visibility a shot needs); rule systems
// build those on top.
//
// # Conventions
//
// Positions use the table coordinates of package geom: X to the right, Y up
// the table ("north"), in whatever unit the caller measures. Heights (Z) are
// in the same unit, with 0 at the table surface.
//
// Terrain is solid only in its open interior. A line that slides along a
// wall's face, clips its corner or skims its top exactly is not blocked (to
// within [geom.Tolerance]), so two pieces of terrain that merely touch never
// hide what lies along their seam.
package los
