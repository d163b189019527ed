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
// # Exact sight
//
// How much of a model an eye sees is an area, computed exactly (see [View]): each
// prism between the eye and the model casts a shadow on the model's silhouette, and what
// the shadows leave is in sight. A part smaller than [AreaTolerance] of the silhouette
// counts as nothing. Rounding cannot flip it: every shadow is made convex exactly as its
// float64 corners lie, by exact orientation tests ([geom.Orient]), and only shadows'
// edges ever cut, so a scene a hair from degenerate (an eye by a face's plane, a piece
// ending on the silhouette's plane, pieces that touch) errs by a sliver a hair wide at
// most. The older answer, a share of sample rays ([Scene.VisibleFraction]),
// is kept for battles begun before sight was exact and as the oracle the tests check the
// exact answer against.
//
// Terrain is solid only in its open interior. A line that slides along a
// wall's face, clips its corner or skims its top exactly is not blocked (to
// within [geom.Tolerance]), so two pieces of terrain that merely touch never
// hide what lies along their seam.
package los
