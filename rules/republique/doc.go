// Package republique implements the Artillery/Skirmish phase of WTJ's Republique
// Napoleonic rules: skirmish fire (opposed and unopposed markers), artillery fire by
// batteries, groups and massed batteries (range lines, fire point and die modifiers),
// the main target rule that picks the target for the player, tandem and adjacent
// secondary targets that share one roll's hits, saved and passing fire, and the leader
// injury tests after the phase's fire. From edition 4 units move in their player turn's
// maneuver step (move.go), and the facts the phase reads from movement are measured:
// limbered, stationary, saved fire lost, prolonged, and passing fire along the mover's
// path, with a pause for the battery's side to answer (passing.go).
//
// Everything is measured in centimetres between rectangular bases: a battery's 60° arc
// of fire from the outer front edges of its base, its frontage zone swung within the arc
// and its centre of fire, the enfilade arc on a target's flank. Fire within a step is
// simultaneous: hits are pending until the step ends.
//
// Every number the text prints is a named constant in rules.go. The Combat Chart's
// sections the text refers to without printing (range lines, the artillery fire chart,
// the skirmishers' chart, the leader injury chart) are data:
// examples/republique/sample-charts.yaml is a labelled sample. Readings are in
// docs/rules/republique.md. The package registers itself as "republique".
package republique
