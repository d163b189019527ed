package warfare

// Numbers the article prints.
const (
	// D10 is the die of the existing system, of the alternate system's fraction roll,
	// and of every ammunition check.
	D10 = 10
	// D6 is the die of the alternate system's random factor, halved and rounded up.
	D6 = 6
	// NeedClose, NeedEffective and NeedLong are the existing system's d10 rolls to hit
	// before modifiers.
	NeedClose     = 6
	NeedEffective = 8
	NeedLong      = 10
	// BaseClose, BaseEffective and BaseLong are the alternate system's base missile
	// factors: the percentage chance of a hit per stand under the existing system, in
	// tens.
	BaseClose     = 5
	BaseEffective = 3
	BaseLong      = 1
	// FactorPerCasualty: the final missile factor divided by this gives whole
	// casualties; the remainder is the chance in tenths of one more.
	FactorPerCasualty = 10
	// LowOnMissilesRoll: in the alternate system the fraction d10 showing this makes the
	// firing unit Low on Missiles, or Out if it was already Low.
	LowOnMissilesRoll = 10
)

// Bounds that are not rules: they keep a typo from overflowing.
const (
	MaxStands     = 1000
	MaxFigures    = 100
	MaxModifier   = 100
	MaxDistance   = 10000 // inches
	MaxTargets    = 20
	MaxLowTrigger = MaxStands
)

// DefaultLowTrigger is volley's sample reading of what makes a unit go Low on Missiles
// in the existing system, which the article does not print: one natural 10 among the
// firing stands' d10s. Tables may say otherwise (low_trigger).
const DefaultLowTrigger = 1
