package scenario

// EndSpec is a scenario's `end:` section: when the battle ends by itself and how it is
// scored. None of volley's rule texts gives victory conditions, so this is volley's own
// (docs/api.md, "The end of a battle"), the same for every rule system:
//
//	end:
//	  turns: 4                         # the battle ends when round 4 ends
//	  points: {hunter-1: 3, hunter-2: 3} # what destroying each unit scores its enemies; 1 if not listed
//	  objectives:
//	    - {name: the crossroads, at: [24, 24], radius: 3, points: 2}
//
// A battle with an end also ends when a side has no unit left, or when every side has
// offered to end it. Every field may be left out.
type EndSpec struct {
	// Turns is the last round: the battle ends when the round after it would begin. 0:
	// no last round.
	Turns int `yaml:"turns"`
	// Points is what destroying a unit scores for each of its enemies, by the unit's id;
	// a unit not listed scores Destroyed.
	Points map[string]float64 `yaml:"points"`
	// Destroyed is what destroying a unit not in Points scores; 1 when left out.
	Destroyed *float64 `yaml:"destroyed"`
	// Objectives are places a side scores for holding when the battle ends.
	Objectives []ObjectiveSpec `yaml:"objectives"`
}

// ObjectiveSpec is a place on the table that scores Points for the side holding it: the
// side with more units (not destroyed) within Radius of At than any other. On a grid
// map At is a square [column, row] and Radius counts squares (each way, diagonals
// included).
type ObjectiveSpec struct {
	Name   string `yaml:"name,required"`
	At     Point  `yaml:"at,required"`
	Radius Length `yaml:"radius,required"`
	// Points is what holding it scores; 1 when left out.
	Points *float64 `yaml:"points"`
}
