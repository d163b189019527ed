// Package dropzone implements Dropzone Commander-style shooting: weapon profiles with
// Move & Fire, arcs, full and countered ranges, shots, accuracy and energy; a squad that
// declares every target before rolling; a D6 to hit (a 6 always hits); D6 + energy
// against armour with criticals; and active, evasion and passive countermeasures.
//
// The rules come from the Shooting chapter of the Dropzone Commander rules. Every number
// it prints is a named constant in profile.go, and every reading of an unclear rule is in
// docs/rules/dropzone.md. The package registers itself as "dropzone".
package dropzone
