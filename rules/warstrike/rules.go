package warstrike

// Numbers the text prints.
const (
	// AreaSightDistance is how far, in inches, models completely behind or within area
	// terrain taller than themselves can see and be seen (TLOS And Area Terrain).
	AreaSightDistance = 12.0
	// ElevationStep and ElevationBonus: every full ElevationStep inches of a model's
	// base above the table add ElevationBonus inches to the distance within which it
	// sees into or behind area terrain, and to the distance within which others see it
	// through area terrain (TLOS And Elevated Positions).
	ElevationStep  = 3.0
	ElevationBonus = 6.0
	// MaxTargetsWithLeader is how many target units a unit with its leader may choose;
	// a unit that has lost its leader chooses one (Select Your Targets).
	MaxTargetsWithLeader = 2
	// MaxTargetsWithoutLeader is the one target of a unit without a leader.
	MaxTargetsWithoutLeader = 1
	// SuppressedAt is the number of suppression markers, at the start of its player's
	// action phase, from which a unit may not shoot (Who Can Shoot?).
	SuppressedAt = 2
	// CamoFactor is what Adaptive Camo multiplies the distance by at which others see
	// the unit through area terrain; EasilySeenFactor is Easily Seen's.
	CamoFactor       = 0.5
	EasilySeenFactor = 2.0
)

// Action is the action a unit chose in the action phase.
type Action string

// The actions the text names. The first four allow shooting (Actions That Allow
// Shooting); the rest do not (Who Can Shoot?).
const (
	OpenFire        Action = "open_fire"
	HaltAndFire     Action = "halt_and_fire"
	ShootingAdvance Action = "shooting_advance"
	FocusFire       Action = "focus_fire"
	AtTheDouble     Action = "at_the_double"
	FallBack        Action = "fall_back"
	Halt            Action = "halt"
	GoToGround      Action = "go_to_ground"
	Advance         Action = "advance"
)

// ShootingActions are the actions that allow a unit to shoot, in the text's order.
var ShootingActions = []Action{OpenFire, HaltAndFire, ShootingAdvance, FocusFire}

// AllActions are every action the text names.
var AllActions = []Action{OpenFire, HaltAndFire, ShootingAdvance, FocusFire, AtTheDouble, FallBack, Halt, GoToGround, Advance}

// Title is the action as the text writes it.
func (a Action) Title() string {
	switch a {
	case OpenFire:
		return "Open Fire"
	case HaltAndFire:
		return "Halt And Fire"
	case ShootingAdvance:
		return "Shooting Advance"
	case FocusFire:
		return "Focus Fire"
	case AtTheDouble:
		return "At-The-Double"
	case FallBack:
		return "Fall Back"
	case Halt:
		return "Halt"
	case GoToGround:
		return "Go To Ground"
	case Advance:
		return "Advance"
	}
	return string(a)
}

// allowsShooting reports whether a unit that chose a may shoot.
func (a Action) allowsShooting() bool {
	for _, s := range ShootingActions {
		if a == s {
			return true
		}
	}
	return false
}

// The special rules of the text.
const (
	AdaptiveCamo = "adaptive_camo"
	EasilySeen   = "easily_seen"
)

// ExactSightEdition is the first edition of volley's rules (volley.Edition) whose
// WarStrike battles measure sight exactly and read area terrain's sides, partly visible,
// the casualty order and ties as docs/rules/warstrike.md says; battles begun before keep
// the readings they were played with.
const ExactSightEdition = 4

// ClimbEdition is the first edition of volley's rules whose WarStrike models climb: a
// model on a floor of area terrain (a ruin's) keeps its elevation while it moves along
// the floor, a path may end with a climb to a floor or down from one, and a model climbs
// over a wall lower than itself (docs/rules/warstrike.md, "Floors and walls"). Battles
// begun before keep the moves they were played with: a model that moves stands on the
// ground where it stops, and every wall stops it.
const ClimbEdition = 5

// Bounds that are not rules: they keep a typo or a hostile scenario from costing more
// than a request may.
const (
	MaxDistance      = 1000 // inches, for any coordinate or length
	MaxModelsPerUnit = 50
	MaxModels        = 400
	MaxUnits         = 100
	MaxTerrain       = 200
	MaxPolygonPoints = 64
	MaxShots         = 20 // per model and weapon
	MaxDie           = 100
	MaxWounds        = 20
	MaxMarkers       = 20
	MaxSamples       = 16 // silhouette columns or rows
	MaxFloors        = 8  // a piece of area terrain's floors
)
