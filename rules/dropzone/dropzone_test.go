package dropzone

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rulestest"
)

// sys is Dropzone as its tests load it.
var sys = rulestest.System[*Battle, *Shooting]{Name: "dropzone", Ruleset: Ruleset{}}

func TestDamageFor(t *testing.T) {
	tests := []struct {
		roll, energy, armour, devastator int
		want                             int
	}{
		{1, 20, 5, 0, 0},  // a natural 1 never damages, whatever the energy
		{2, 3, 6, 0, 0},   // 5 < 6
		{3, 3, 6, 0, 1},   // 6 equals armour
		{4, 3, 6, 0, 1},   // beats by 1
		{5, 3, 6, 0, 2},   // beats by 2: critical
		{6, 3, 6, 0, 2},   // beats by 3: critical
		{6, 3, 13, 0, 0},  // the Equalizer cannot reach a Hunter's 13
		{3, 10, 13, 0, 1}, // the Avenger against a Hunter: 13 equals
		{5, 10, 13, 0, 2}, // 15 beats 13 by 2
		{3, 3, 6, 2, 3},   // Devastator 2 adds 2 to a damaging roll
		{5, 3, 6, 2, 4},   // and to a critical
		{2, 3, 6, 2, 0},   // but not to a roll that did nothing
		{1, 3, 6, 2, 0},   // nor to a natural 1
	}
	for _, tt := range tests {
		if got := damageFor(tt.roll, tt.energy, tt.armour, tt.devastator); got != tt.want {
			t.Errorf("damageFor(roll %d, E%d, armour %d, devastator %d) = %d; want %d", tt.roll, tt.energy, tt.armour, tt.devastator, got, tt.want)
		}
	}
}

func TestHitChance(t *testing.T) {
	tests := []struct {
		need int
		want float64
	}{
		{0, 1}, {1, 1}, {2, 5.0 / 6}, {3, 4.0 / 6}, {4, 3.0 / 6}, {5, 2.0 / 6}, {6, 1.0 / 6},
		{7, 1.0 / 6}, {9, 1.0 / 6}, // a 6 always hits
	}
	for _, tt := range tests {
		if got := hitChance(tt.need); math.Abs(got-tt.want) > 1e-15 {
			t.Errorf("hitChance(%d) = %v; want %v", tt.need, got, tt.want)
		}
	}
}

func TestDiscardChance(t *testing.T) {
	tests := []struct {
		save int
		want float64
	}{{0, 0}, {1, 1}, {4, 0.5}, {5, 2.0 / 6}, {6, 1.0 / 6}, {7, 0}}
	for _, tt := range tests {
		if got := discardChance(tt.save); math.Abs(got-tt.want) > 1e-15 {
			t.Errorf("discardChance(%d) = %v; want %v", tt.save, got, tt.want)
		}
	}
}

// TestSeedEvasionExample is the seed's own example: a 3+ weapon, a squad out of
// coherency (+1) and a target with evasion +2 needs a 6.
func TestSeedEvasionExample(t *testing.T) {
	b, a := sys.LoadFile(t, "coherency-evasion.yaml")
	aims := rulestest.Aim(t, b, a)
	if len(aims) != 1 {
		t.Fatalf("got %d aims; want 1", len(aims))
	}
	got := aims[0]
	if got.Status != volley.StatusOK || got.Need != 6 || math.Abs(got.PHit-1.0/6) > 1e-15 {
		t.Errorf("aim = %+v; want ok, need 6, p_hit 1/6", got)
	}
	var sum float64
	for _, m := range got.Modifiers {
		sum += m.Value
	}
	if sum != 3 || len(got.Modifiers) != 2 {
		t.Errorf("modifiers = %+v; want +1 coherency and +2 evasion", got.Modifiers)
	}
}

// TestEqualizerCannotHurtHunter: energy 3 never reaches armour 13.
func TestEqualizerCannotHurtHunter(t *testing.T) {
	b, a := sys.LoadFile(t, "equalizer-vs-hunter.yaml")
	odds := rulestest.Odds(t, b, a)
	if len(odds.Targets) != 1 {
		t.Fatalf("got %d targets; want 1", len(odds.Targets))
	}
	tg := odds.Targets[0]
	dmg := tg.Distributions[MeasureDamage]
	if dmg.P(0) != 1 || tg.PDestroyed != 0 {
		t.Errorf("hunter damage = %v, p_destroyed %v; want all at 0 and 0", dmg, tg.PDestroyed)
	}
	if hits := tg.Distributions[MeasureHits]; hits.Mean() < 1 {
		t.Errorf("hits mean = %v; the shots do hit, they just do no damage", hits.Mean())
	}
}

// TestSabresByHand checks the railgun at a Hunter against arithmetic done by hand:
// 2+ to hit (5/6); damage die 1-2 nothing, 3-4 one point (13 equals), 5-6 a critical.
func TestSabresByHand(t *testing.T) {
	b, a := sys.LoadFile(t, "sabres.yaml")
	odds := rulestest.Odds(t, b, a)
	var h volley.TargetOdds
	for _, tg := range odds.Targets {
		if tg.Target == "hunter-1" {
			h = tg
		}
	}
	d := h.Distributions[MeasureDamage]
	want := map[int]float64{0: 1.0/6 + 5.0/6*2/6, 1: 5.0 / 6 * 2 / 6, 2: 5.0 / 6 * 2 / 6}
	for v, p := range want {
		if math.Abs(d.P(v)-p) > 1e-15 {
			t.Errorf("hunter-1 P(damage=%d) = %v; want %v", v, d.P(v), p)
		}
	}
	if h.PDestroyed != 0 {
		t.Errorf("one railgun shot cannot destroy a 3-point Hunter; p_destroyed = %v", h.PDestroyed)
	}
	for _, aim := range odds.Aims {
		if aim.Status != volley.StatusOK {
			t.Errorf("%s %s → %s: %s (%s); want ok", aim.Shooter, aim.Weapon, aim.Target, aim.Status, aim.Reason)
		}
	}
}

func TestResolveIsDeterministicAndApplied(t *testing.T) {
	var first []byte
	for i := range 3 {
		b, a := sys.LoadFile(t, "sabres.yaml")
		out := rulestest.MustResolve(t, b, a, dice.ForAction(7, 0))
		got := []byte(strings.Join(rollStrings(out.Rolls), ","))
		if i == 0 {
			first = got
		} else if string(got) != string(first) {
			t.Fatalf("run %d rolled %s; run 0 rolled %s", i, got, first)
		}
		for _, r := range out.Targets {
			u, _ := b.Unit(r.Target)
			if float64(u.DamagePoints) != r.Measures["damage_points"] {
				t.Errorf("%s has %d damage points; outcome says %v", r.Target, u.DamagePoints, r.Measures["damage_points"])
			}
			if want := float64(u.Type.DamagePoints) - r.Measures[MeasureDamage]; float64(u.DamagePoints) != want {
				t.Errorf("%s: %d damage points left; want %v", r.Target, u.DamagePoints, want)
			}
		}
	}
}

func rollStrings(rs []dice.Roll) []string {
	s := make([]string, len(rs))
	for i, r := range rs {
		s[i] = r.Purpose + "=" + string(rune('0'+r.Value))
	}
	return s
}

// TestSeedEvasionTrace: resolve's trace builds the need exactly as the seed's example
// does: 3+, then 4+ for coherency, then 6+ for evasion.
func TestSeedEvasionTrace(t *testing.T) {
	b, a := sys.LoadFile(t, "coherency-evasion.yaml")
	out := rulestest.MustResolve(t, b, a, dice.ForAction(1, 0))
	var needs []string
	for _, s := range out.Trace {
		if s.Rule == "to-hit" || s.Rule == "to-hit modifier" {
			needs = append(needs, s.Result.(string))
		}
	}
	if want := []string{"needs 3+", "needs 4+", "needs 6+"}; strings.Join(needs, ", ") != strings.Join(want, ", ") {
		t.Errorf("trace needs = %v; want %v", needs, want)
	}
}

// TestBrokenScenarios: the mistakes of testdata/broken (typos in fields, kinds, types,
// weapons and names, a shot out of arc, out of range, at a friend or after moving too
// far) are each reported once, at its line:col, as volley check reports them. Refresh
// with go test -update.
func TestBrokenScenarios(t *testing.T) {
	rulestest.BrokenScenarios(t, filepath.Join("testdata", "broken"))
}
