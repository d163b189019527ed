package warengine

// Numbers the seed prints. Where the seed calls one a default that a game may change,
// an option switches it (see Options); the others are fixed.
const (
	// D100 is the die of every test: a roll of 1 to 100 at or under a chance passes.
	D100 = 100
	// AimingBonus is added to weapon skill by a unit that is aiming (it did not move in
	// its movement phase).
	AimingBonus = 20
	// VisibilityDivisor: the "diminishes visibility" values along the line of fire are
	// summed and divided by this to give the terrain modifier to ChanceToHit.
	VisibilityDivisor = 2
	// DeviationStep: every this many squares of distance add one square to
	// MaxDistanceMissedBy.
	DeviationStep = 5
	// MaxDeviation caps MaxDistanceMissedBy.
	MaxDeviation = 5
	// TargetedEnemyWeight: after a passed ChanceToHit, a targeted square holding an
	// enemy is this many times as likely to be picked as any other unit square.
	TargetedEnemyWeight = 2
	// RepeatingPicks is how many times a repeating weapon fired without aiming picks its
	// square, each pick starting from the last.
	RepeatingPicks = 3
	// SolidFirepower: terrain that diminishes firepower by this much stops a shot.
	SolidFirepower = 100
	// OpaqueVisibility: terrain that diminishes visibility by this much blocks sight,
	// and its firepower value counts towards the obstacle modifier.
	OpaqueVisibility = 100
	// CourageMorale: a firing unit whose morale is at or below this (in the seed's
	// sign; see Options.CourageWhen) fights with courage.
	CourageMorale = -50
	// CourageModifier is the percentage courage adds; PanicModifier the one a badly
	// shaken or panicked unit suffers.
	CourageModifier = 10
	PanicModifier   = -10
	// AimedRangePerSize: an aiming unit whose target is within this many squares per
	// point of size (10 for size 1, 20 for size 2, 30 for size 3) gets AimedModifier.
	AimedRangePerSize = 10
	AimedModifier     = 10
	// BaseDamageRoll is the default base damage roll added to the adjusted strength.
	BaseDamageRoll = 50
	// MaxWeapons and MaxGroups bound a unit's weapons and weapon groups.
	MaxWeapons = 6
	MaxGroups  = 6
	// FacingStep: facings and arcs turn in 45° steps.
	FacingStep = 45
	// FrontHalfArc and RearHalfArc split the directions a shot can come from: within
	// FrontHalfArc degrees of the target's facing is the front, within RearHalfArc of
	// straight behind is the rear, the rest is a side.
	FrontHalfArc = 45
	RearHalfArc  = 45
)

// Bounds that are not rules: they keep a typo from becoming a map of a billion squares.
const (
	MaxMapSide = 512
	MaxSize    = 16   // largest unit size (squares per side)
	MaxPercent = 1000 // largest skill, strength, toughness or save value
	// MaxMove bounds a type's move and a move's path, in squares: across the largest
	// map and back.
	MaxMove = 2 * MaxMapSide
)

// Edition3 is the edition of volley's rules (volley.Edition) from which a declaration is
// decided when it is made — a target corrected onto a friend's square without friendly
// is refused then, so that a declared target always fires — and a weapon written with
// the name of another's numbered copy ("Pistol 2" beside a Pistol of count 2) is
// refused at load. Battles begun under an older edition replay as they were played.
const Edition3 = 3

// NeedsEdition is the edition of volley's rules from which each percentile die the War
// Engine rolls names, in its purpose, the roll it needs: "ChanceToHit, …, pick 1, needs
// 45 or less", the chance to damage, the save. A player rolling by hand is asked for the
// die with its need. A verification compares purposes, so a battle begun under an older
// edition keeps the words it was rolled with.
const NeedsEdition = 6
