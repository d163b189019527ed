package republique

// Numbers the phase's text prints. Distances are in centimetres, as the text measures
// them (its one distance in inches, the half inch of cover, is converted).
const (
	// D10 is the die of skirmish fire, of artillery fire and of the leader injury test.
	D10 = 10
	// OpposeWithin is how near an enemy skirmish marker must be for a marker to declare
	// it opposed, in cm.
	OpposeWithin = 8.0
	// ArcOfFire is the total width, in degrees, of a battery's arc of fire, measured
	// from the outer front edges of its base; the enfilade arc has the same angle.
	ArcOfFire = 60.0
	// SpotInsideCover is how far inside cover a unit may be and still be spotted and
	// fired at by artillery: half an inch, in cm.
	SpotInsideCover = 0.5 * 2.54
	// DeepTargetBases is how many combat bases the centre of fire must pass through in
	// one range bracket, all in open terrain, to fire at a deep target.
	DeepTargetBases = 3
	// TandemBehind is how far behind the main target's front a tandem target's front may
	// lie, in cm.
	TandemBehind = 5.0
	// LeaderRisk is how near a leader must be to a unit fired upon, to a unit hit by
	// skirmishers, or to a base lost, for the leader injury test and its modifiers, in cm.
	LeaderRisk = 8.0
	// PassingInfantry and PassingCavalry are how far enemy infantry and cavalry must move
	// within a battery's arc of fire for it to pass fire at them, in cm.
	PassingInfantry = 8.0
	PassingCavalry  = 15.0
	// PassingAcross is how far from perpendicular to the battery's front a unit's move
	// must run to be "across its front", in degrees.
	PassingAcross = 45.0
)

// Die modifiers the text prints (artillery fire).
const (
	// DeepTargetModifier is added when the centre of fire passes through a deep target.
	DeepTargetModifier = +1
	// CavalryModifier applies when over half of the target is cavalry bases.
	CavalryModifier = -1
	// SolidCoverModifier and HeavyCoverModifier apply when half or more of the target is
	// in solid or heavy cover.
	SolidCoverModifier = -1
	HeavyCoverModifier = -2
	// PassingFireModifier applies to passing (opportunity) fire.
	PassingFireModifier = -2
	// SkirmisherModifier applies to fire at skirmish markers or at fully deployed light
	// infantry.
	SkirmisherModifier = -2
	// LevelModifier applies per full elevation level between battery and target.
	LevelModifier = -1
	// GoodLeaderRating is the lowest rating of a good artillery leader ("1 or better").
	GoodLeaderRating = 1
)

// Fire point multipliers the text prints; they are cumulative.
const (
	SavedFireFactor = 2.0
	EnfiladeFactor  = 2.0
	DamagedFactor   = 0.5
	DisorderFactor  = 0.5
)

// Leader injury die modifiers the text prints.
const (
	// EmergencyRallyModifier is for the test before an emergency rally, a Command phase
	// matter: volley lists it and never applies it in this phase.
	EmergencyRallyModifier = +4
	// SkirmishedModifier applies to a leader within LeaderRisk of a unit that suffered
	// morale hits from enemy skirmishers this phase.
	SkirmishedModifier = +2
	// AttachedModifier applies to a leader attached to a unit.
	AttachedModifier = +1
	// BaseLostModifier applies per friendly combat base lost within LeaderRisk this
	// player turn.
	BaseLostModifier = +1
	// LeaderCoverModifier applies when half or more of the units within LeaderRisk of the
	// leader are in cover.
	LeaderCoverModifier = -1
)

// Edition3 is the edition of volley's rules (volley.Edition) from which Republique fires
// follow the text where earlier editions did not: compound targets through the deep
// target rule, no deep target against a main target in cover, batteries never counted
// as combat bases, adjacent targets beside the main target. Battles begun under an
// older edition replay as they were played.
const Edition3 = 3

// Edition5 is the edition of volley's rules from which a battery's fire points are halved
// for disorder (Disordered+) by the morale it had when the artillery fire segment began,
// as the text says ("batteries which begin the artillery fire step in disordered or
// rattled status"): hits that take effect within the segment (on a battery that
// prolonged, which lost simultaneous fire) do not halve its fire that segment. Earlier
// editions read the morale it had as it fired; their battles replay so.
const Edition5 = 5

// Bounds that are not rules: they keep a typo from costing the server.
const (
	MaxUnits     = 200
	MaxBases     = 48
	MaxDistance  = 5000.0 // cm
	MaxBaseSize  = 100.0  // cm
	MaxChartRows = 60
	MaxBrackets  = 12
	MaxGroup     = 12 // batteries in one group
	MaxHits      = 50
)
