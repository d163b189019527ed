// Package warengine implements the shooting of The War Engine, a grid wargame. From
// edition 4 a side's units move square by square in its move phase (Phase I), and one
// that did not move aims. A unit declares a target square for each weapon of one weapon
// group in the target phase and fires them in the fire phase. Each shot deviates over an area that grows with range:
// a d100 against ChanceToHit picks a unit-occupied square or an empty one, a repeating
// weapon fired without aiming picks three times, and the line of fire stops at the
// first force or solid terrain in the way. The damage check then applies courage,
// aiming, range, strength, obstacles, toughness by ammo and direction, cover and a save.
//
// The rules come from The War Engine manual's targeting and firing chapter. Every number
// it prints is a named constant in rules.go, and every reading of an unclear rule
// is in docs/rules/warengine.md with the option that switches it. Odds are exact: the
// landing distribution over squares after every pick and the interception, then each
// unit's hits. The package registers itself as "warengine".
package warengine
