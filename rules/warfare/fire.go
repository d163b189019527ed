package warfare

import (
	"context"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// Band is a range band.
type Band string

// The range bands, and beyond them.
const (
	Close      Band = "close"
	Effective  Band = "effective"
	Long       Band = "long"
	OutOfRange Band = "out_of_range"
)

// DecodeScalar reads close, effective or long.
func (b *Band) DecodeScalar(s scenario.Scalar) error {
	return scenario.DecodeWord(b, s, Close, Effective, Long)
}

// baseFactor is the alternate system's base missile factor for a band.
func baseFactor(b Band) int {
	switch b {
	case Close:
		return BaseClose
	case Effective:
		return BaseEffective
	}
	return BaseLong
}

// baseNeed is the existing system's d10 roll to hit for a band.
func baseNeed(b Band) int {
	switch b {
	case Close:
		return NeedClose
	case Effective:
		return NeedEffective
	}
	return NeedLong
}

func dist(a, b scenario.Point) float64 { return math.Hypot(a.X-b.X, a.Y-b.Y) }

// aimed is one target of a fire worked out.
type aimed struct {
	FireTarget
	target *Unit
	aim    volley.Aim
	// mods are the modifiers that apply, in the alternate system's sign (a help to the
	// firer is positive); modSum is their total.
	mods   []volley.Modifier
	modSum int
}

func (t *aimed) ok() bool { return t.aim.Status == volley.StatusOK }

// plan works out every target of a fire: whether it may be shot at, and the modifiers.
// A fire built by hand rather than decoded is checked here too: an unknown unit, a band
// left empty or more stands than the firer has make that target not eligible. firer is
// nil when the firing unit is unknown.
func (b *Battle) plan(a *Fire) (*Unit, []aimed) {
	firer, known := b.Unit(a.Unit)
	out := make([]aimed, len(a.Targets))
	for i, ft := range a.Targets {
		t := &out[i]
		if ft.measured && known {
			// Measured where the units stand now: after any move since it was decoded.
			if tg, ok := b.Unit(ft.Unit); ok {
				if band, d, err := b.measure(firer, tg, nil); err == nil {
					ft.Band, ft.Distance = band, d
				}
			}
		}
		t.FireTarget = ft
		t.target, _ = b.Unit(ft.Unit)
		t.aim = volley.Aim{Shooter: a.Unit, Target: ft.Unit, Modifiers: []volley.Modifier{}}
		fail := func(st volley.AimStatus, format string, args ...any) {
			t.aim.Status, t.aim.Reason = st, fmt.Sprintf(format, args...)
		}
		if !known {
			fail(volley.StatusNotEligible, "unknown unit %q", a.Unit)
			continue
		}
		t.aim.Weapon = firer.Weapon
		if ft.Distance > 0 || ft.Band == OutOfRange { // measured, not given as a band
			t.aim.Range, t.aim.RangeUnit = roundIn(ft.Distance, b.unit), string(b.unit)
		}
		if b.system == Existing {
			t.aim.Shots = float64(ft.Stands) // one d10 a stand
		}
		switch {
		case t.target == nil:
			fail(volley.StatusNotEligible, "unknown target %q", ft.Unit)
		case firer.Weapon == "":
			fail(volley.StatusNotEligible, "%s has no missile weapon", firer.ID)
		case firer.Destroyed():
			fail(volley.StatusNotEligible, "%s has no figures left", firer.ID)
		case firer.Ammo == AmmoOut:
			fail(volley.StatusNotEligible, "%s is Out of Missiles and cannot fire", firer.ID)
		case ft.Stands < 1 || ft.Stands > firer.StandsLeft():
			fail(volley.StatusNotEligible, "%s has %d stands left, so between 1 and %d can fire, not %d", firer.ID, firer.StandsLeft(), firer.StandsLeft(), ft.Stands)
		case t.target.Destroyed():
			fail(volley.StatusNotEligible, "%s has no figures left", ft.Unit)
		case t.target.Side == firer.Side:
			fail(volley.StatusNotEligible, "%s is on %s's side", ft.Unit, firer.ID)
		case ft.Band == OutOfRange:
			fail(volley.StatusOutOfRange, "%s is %s away, beyond %s's long range", ft.Unit, scenario.Inches(ft.Distance).Format(b.unit), firer.Weapon)
		case ft.Band != Close && ft.Band != Effective && ft.Band != Long:
			fail(volley.StatusNotEligible, "no range band given for %s", ft.Unit)
		default:
			t.aim.Status = volley.StatusOK
			b.modifiers(firer, t)
			b.toHit(a, t)
		}
	}
	if !known {
		return nil, out
	}
	return firer, out
}

// roundIn writes a distance in inches in the scenario's unit, rounded to a thousandth.
func roundIn(inches float64, u scenario.Unit) float64 {
	v := scenario.Inches(inches).In(u)
	return math.Round(v*1000) / 1000
}

// modifiers gathers the modifiers that apply to one target: every table modifier whose
// condition holds, and every one the fire names. They are kept in the alternate
// system's sign whatever sign the tables are written in.
func (b *Battle) modifiers(firer *Unit, t *aimed) {
	sign := 1
	if b.tables.Sign == Existing {
		sign = -1
	}
	for _, m := range b.tables.Modifiers {
		if m.When != nil && m.When.holds(firer, t.target) || slices.Contains(t.Modifiers, m.Name) {
			v := sign * m.Value
			t.mods = append(t.mods, volley.Modifier{Rule: m.Name, Value: float64(v)})
			t.modSum += v
		}
	}
}

// toHit fills the aim's need and chance. In the existing system the modifiers are
// shown as the rule book writes them there: a help lowers the roll needed.
func (b *Battle) toHit(f *Fire, t *aimed) {
	if b.system == Existing {
		need := b.need(t)
		for _, m := range t.mods {
			t.aim.Modifiers = append(t.aim.Modifiers, volley.Modifier{Rule: m.Rule, Value: -m.Value})
		}
		t.aim.Need, t.aim.Die, t.aim.PHit = float64(max(need, 1)), D10, b.hitChance(need)
		t.aim.Reason = fmt.Sprintf("%d stands each need %d+ on a d10 at %s range", t.Stands, need, t.Band)
		return
	}
	t.aim.Modifiers = append(t.aim.Modifiers, t.mods...)
	rf := randomFactor(f.Rolls)
	d := rf.Then(func(r int) dice.Dist { return b.casualties(t, r) })
	t.aim.PHit = 1 - d.P(0)
	random := "plus the random factor"
	if f.Rolls != nil {
		random = fmt.Sprintf("random factor %+d (rolls fixed at %d and %d)", rf.Min(), f.Rolls.Firer, f.Rolls.Target)
	}
	t.aim.Reason = fmt.Sprintf("base missile factor %d at %s range, %+d in modifiers, %s, ×%d stands",
		baseFactor(t.Band), t.Band, t.modSum, random, t.Stands)
}

// need is the existing system's d10 roll to hit a target.
func (b *Battle) need(t *aimed) int { return baseNeed(t.Band) - t.modSum }

// hitChance is the probability that one stand's d10 hits against need.
func (b *Battle) hitChance(need int) float64 {
	n := 0
	for r := 1; r <= D10; r++ {
		if b.hits(r, need) {
			n++
		}
	}
	return float64(n) / D10
}

// hits reports whether a d10 hits: at or over the need, or a natural 10 when that
// option is on.
func (b *Battle) hits(roll, need int) bool { return roll >= need || b.naturalTen && roll == D10 }

// halfUp is a d6 halved and rounded up: 1–2 → 1, 3–4 → 2, 5–6 → 3.
func halfUp(roll int) int { return (roll + 1) / 2 }

// randomFactor is the distribution of the alternate system's random factor: the
// firer's d6 halved less the target player's d6 halved, both rounded up. Fixed rolls
// make it a constant.
func randomFactor(r *Rolls) dice.Dist {
	if r != nil {
		return dice.Const(halfUp(r.Firer) - halfUp(r.Target))
	}
	half := dice.Die(D6).Map(halfUp)
	return half.Sub(half)
}

// alternateCasualties is the casualties one target suffers for a modified missile
// factor: the final factor (× stands) in tens is whole casualties, the remainder the
// chance in tenths of one more (a d10 at or under it); nothing for a factor of zero or
// less; never more than the stands firing, nor than the figures the target has left.
func alternateCasualties(modified, stands, left int) dice.Dist {
	final := modified * stands
	if final <= 0 {
		return dice.Const(0)
	}
	whole, rem := final/FactorPerCasualty, final%FactorPerCasualty
	p := float64(rem) / D10
	d := dice.Mixture([]float64{1 - p, p}, []dice.Dist{dice.Const(whole), dice.Const(whole + 1)})
	return d.Cap(min(stands, left))
}

// Aim works out every target of the fire. A fire's work is small and bounded (see Cost),
// so ctx is only checked before it starts.
func (b *Battle) Aim(ctx context.Context, a volley.Action) ([]volley.Aim, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f, ok := a.(*Fire)
	if !ok {
		return nil, nil // ending a turn, a move, a deployment: no fire
	}
	_, ts := b.plan(f)
	aims := make([]volley.Aim, len(ts))
	for i := range ts {
		aims[i] = ts[i].aim
		if err := b.fireCheck(f); err != nil && aims[i].Status == volley.StatusOK {
			aims[i].Wait(err.Error())
		}
	}
	return aims, nil
}

// Cost bounds the work of a fire, in volley.MaxWork's steps: each target's casualties
// (a binomial over its stands, for each random factor), the joint outcomes (at most
// maxJoint per target), and the exact chance of going Low (a sum over the firing stands
// of big-number powers, about as many steps as the stands squared). A move costs each leg
// swept against every unit's base.
func (b *Battle) Cost(a volley.Action) int64 {
	switch a := a.(type) {
	case *TurnEnd, *volley.DeploymentEnd:
		return 1
	case *Move:
		// Each leg swept against every unit's base.
		return int64(len(a.Points)+1) * int64(len(b.units)+1)
	case *Deploy:
		return int64(len(b.units) + 1)
	}
	f := mustFire(a)
	stands := int64(0)
	work := int64(maxJoint) * int64(len(f.Targets)+1)
	for _, t := range f.Targets {
		stands += int64(t.Stands)
		work += 6 * (int64(t.Stands) + 1) * 8
	}
	return work + stands*stands*bigWordsPerStand
}

// bigWordsPerStand is the size, in machine words, that a power of 9 or 10 grows by with
// each stand: what one step of tensAtLeast's sums costs per stand.
const bigWordsPerStand = 1

func mustFire(a volley.Action) *Fire { return rules.Must[*Fire](Name, a) }

// MeasureCasualties is what missile fire inflicts: figures lost.
const MeasureCasualties = "casualties"

// maxJoint bounds the joint outcomes listed for a fire at several targets.
const maxJoint = 4096

// Odds is the exact distribution of casualties on every target, their joint
// distribution when a unit fires at several (the alternate system's shared random
// factor ties them together), and the ammunition outcome.
func (b *Battle) Odds(ctx context.Context, a volley.Action) (volley.Odds, error) {
	if err := ctx.Err(); err != nil {
		return volley.Odds{}, err
	}
	f, ok := a.(*Fire)
	if !ok { // ending a turn, a move, a deployment: nothing rolled
		return volley.Odds{Aims: []volley.Aim{}, Targets: []volley.TargetOdds{}, Values: map[string]float64{}}, nil
	}
	firer, ts := b.plan(f)
	if firer == nil {
		return volley.Odds{}, volley.Errorf(volley.ENOTFOUND, "warfare: unknown unit %q", f.Unit)
	}
	odds := volley.Odds{Aims: []volley.Aim{}, Targets: []volley.TargetOdds{}, Values: map[string]float64{}}
	var okTargets []*aimed
	for i := range ts {
		odds.Aims = append(odds.Aims, ts[i].aim)
		if ts[i].ok() {
			okTargets = append(okTargets, &ts[i])
		}
	}
	// Conditional on each value of the random factor (the existing system has none:
	// one branch), each target's casualties are independent.
	rf := dice.Const(0)
	if b.system == Alternate {
		rf = randomFactor(f.Rolls)
	}
	weights := []float64{}
	per := make([][]dice.Dist, len(okTargets)) // per target, one distribution per random factor
	var joint []volley.JointOutcome
	jointOK := len(okTargets) > 1
	for _, ro := range rf.Outcomes() {
		weights = append(weights, ro.P)
		branch := make([]dice.Dist, len(okTargets))
		for i, t := range okTargets {
			branch[i] = b.casualties(t, ro.Value)
			per[i] = append(per[i], branch[i])
		}
		if jointOK {
			joint, jointOK = appendJoint(joint, okTargets, branch, ro.P)
		}
	}
	for i, t := range okTargets {
		d := dice.Mixture(weights, per[i])
		odds.Targets = append(odds.Targets, volley.TargetOdds{
			Target:        t.Unit,
			Distributions: map[string]dice.Dist{MeasureCasualties: d},
			Mean:          map[string]float64{MeasureCasualties: d.Mean()},
			PDestroyed:    d.AtLeast(t.target.Left()),
		})
	}
	if jointOK {
		odds.Joint = mergeJoint(joint)
	}
	if len(okTargets) > 0 {
		// p_ammo_step is the chance this fire moves the ammunition a step; p_low and
		// p_out the chances the firer ends it Low, or Out.
		step := b.lowChance(okTargets)
		odds.Values["p_ammo_step"] = step
		switch firer.Ammo {
		case AmmoOK:
			odds.Values["p_low"], odds.Values["p_out"] = step, 0
		case AmmoLow:
			odds.Values["p_low"], odds.Values["p_out"] = 1-step, step
		}
	}
	b.factorValues(f, ts, odds.Values)
	return odds, nil
}

// casualties is one target's casualties given the random factor r.
func (b *Battle) casualties(t *aimed, r int) dice.Dist {
	if b.system == Existing {
		return dice.Binomial(t.Stands, b.hitChance(b.need(t))).Cap(t.target.Left())
	}
	return alternateCasualties(baseFactor(t.Band)+r+t.modSum, t.Stands, t.target.Left())
}

// lowChance is the probability that this fire puts the firer one step down: in the
// alternate system a 10 on any target's fraction d10; in the existing system at least
// low_trigger natural 10s among all the firing stands' dice. It is worked out in exact
// fractions, so that one d10 gives exactly 0.1.
func (b *Battle) lowChance(ts []*aimed) float64 {
	if b.system == Alternate {
		return tensAtLeast(len(ts), 1)
	}
	stands := 0
	for _, t := range ts {
		stands += t.Stands
	}
	return tensAtLeast(stands, b.lowTrigger)
}

// tensAtLeast is the probability that n d10s show at least k tens:
// Σ_{j≥k} C(n,j)·9^(n−j) / 10^n, in exact rational arithmetic.
func tensAtLeast(n, k int) float64 {
	if k > n {
		return 0
	}
	num := new(big.Int)
	c := big.NewInt(1) // C(n, j)
	nine := big.NewInt(9)
	for j := 0; j <= n; j++ {
		if j > 0 {
			c.Mul(c, big.NewInt(int64(n-j+1)))
			c.Quo(c, big.NewInt(int64(j)))
		}
		if j >= k {
			term := new(big.Int).Exp(nine, big.NewInt(int64(n-j)), nil)
			num.Add(num, term.Mul(term, c))
		}
	}
	den := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), nil)
	f, _ := new(big.Rat).SetFrac(num, den).Float64()
	return f
}

// factorValues fills the alternate system's factors when the rolls are fixed: the
// first target of the fire unsuffixed, the others with ":target" after the name.
// Targets that cannot be shot at have none.
func (b *Battle) factorValues(f *Fire, ts []aimed, v map[string]float64) {
	if b.system != Alternate || f.Rolls == nil {
		return
	}
	r := halfUp(f.Rolls.Firer) - halfUp(f.Rolls.Target)
	v["random_factor"] = float64(r)
	for i := range ts {
		t := &ts[i]
		if !t.ok() {
			continue
		}
		suffix := ""
		if i > 0 {
			suffix = ":" + t.Unit
		}
		modified := baseFactor(t.Band) + r + t.modSum
		v["base_missile_factor"+suffix] = float64(baseFactor(t.Band))
		v["modified_missile_factor"+suffix] = float64(modified)
		v["final_missile_factor"+suffix] = float64(modified * t.Stands)
	}
}

// appendJoint adds, for one value of the random factor (probability p), every
// combination of the targets' casualties. ok is false once the list would pass
// maxJoint entries: the joint is then left out, the marginals still hold.
func appendJoint(joint []volley.JointOutcome, ts []*aimed, per []dice.Dist, p float64) ([]volley.JointOutcome, bool) {
	combos := []volley.JointOutcome{{Outcome: map[string]int{}, P: p}}
	for i, t := range ts {
		outs := per[i].Outcomes()
		if len(joint)+len(combos)*len(outs) > maxJoint {
			return nil, false
		}
		next := make([]volley.JointOutcome, 0, len(combos)*len(outs))
		for _, c := range combos {
			for _, o := range outs {
				m := make(map[string]int, len(c.Outcome)+1)
				for k, v := range c.Outcome {
					m[k] = v
				}
				m[t.Unit] = o.Value
				next = append(next, volley.JointOutcome{Outcome: m, P: float64(c.P * o.P)})
			}
		}
		combos = next
	}
	return append(joint, combos...), true
}

// mergeJoint adds up identical combinations reached through different random factors
// and sorts them by their casualties, target by target.
func mergeJoint(joint []volley.JointOutcome) []volley.JointOutcome {
	key := func(o volley.JointOutcome) string {
		var b strings.Builder
		for _, k := range slices.Sorted(maps.Keys(o.Outcome)) {
			fmt.Fprintf(&b, "%s=%08d;", k, o.Outcome[k])
		}
		return b.String()
	}
	index := map[string]int{}
	var out []volley.JointOutcome
	for _, o := range joint {
		k := key(o)
		if i, ok := index[k]; ok {
			out[i].P += o.P
			continue
		}
		index[k] = len(out)
		out = append(out, o)
	}
	slices.SortFunc(out, func(a, b volley.JointOutcome) int { return strings.Compare(key(a), key(b)) })
	return out
}
