// Package warstrike implements the shooting sequence and the true line of sight rules
// of the WarStrike draft ("Shooting Rules: Sequence And LOS", version 0.1): who may
// shoot, how a unit chooses up to two targets, line of sight decided in three
// dimensions model by model with the text's exceptions for area terrain, linear
// obstacles, buildings and elevated positions, and the special rules Adaptive Camo and
// Easily Seen.
//
// The text lists the steps after line of sight (concealment, range, to hit, to
// penetrate, to kill, removing the dead) without their numbers, so they are data: a
// scenario's tables give the weapons and how they meet a target's armour and
// toughness. examples/warstrike/sample-tables.yaml is a sample, not the game's.
//
// Every number the text prints is a named constant in rules.go. Every reading volley
// chose where the text is open is in docs/rules/warstrike.md with the option that
// switches it. The package registers itself as "warstrike".
package warstrike
