// Package dice gives volley its three kinds of chance: a seeded Stream that
// throws dice and records every throw so a battle can be replayed and
// explained, a Dist that holds the exact probability distribution of an
// integer outcome so odds can be shown without sampling, and Expr, the small
// dice language ("2d6+1", "D6+E") that rule data uses for variable values.
//
// Nothing here reads global randomness or the clock: every random number
// comes from a Stream built from an explicit seed, so the same seed always
// gives the same battle, on every Go version.
package dice
