package dropzone

import (
	"context"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/volley-wargames/volley/rulestest"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
)

// TestChecksExample walks the example that exercises every check, in the seed's order.
func TestChecksExample(t *testing.T) {
	b, a := sys.LoadFile(t, "checks.yaml")
	want := []struct {
		shooter, weapon string
		status          volley.AimStatus
		need            float64
		reason          string // a fragment the reason must contain
	}{
		{"gun", "Cannon", volley.StatusOK, 5, "hull down"},
		{"gun", "Turret", volley.StatusOK, 3, ""},
		{"gun", "Lance", volley.StatusOutOfRange, 0, "only a target in base contact"},
		{"gun-2", "Cannon", volley.StatusNotEligible, 0, "Check Movement"},
		{"gun-2", "Turret", volley.StatusBlocked, 0, "tower"},
		{"gun-2", "Lance", volley.StatusOK, 4, "base contact"},
		{"gun-3", "Cannon", volley.StatusOutOfArc, 0, "rear arc"},
		{"gun-3", "Turret", volley.StatusNotEligible, 0, "own side"},
		{"gun-3", "Lance", volley.StatusOutOfRange, 0, "full range"},
	}
	aims := rulestest.Aim(t, b, a)
	if len(aims) != len(want) {
		t.Fatalf("got %d aims; want %d", len(aims), len(want))
	}
	for i, w := range want {
		got := aims[i]
		if got.Shooter != w.shooter || got.Weapon != w.weapon {
			t.Fatalf("aim %d is %s %s; want %s %s", i, got.Shooter, got.Weapon, w.shooter, w.weapon)
		}
		if got.Status != w.status {
			t.Errorf("%s %s → %s: status %s (%s); want %s", w.shooter, w.weapon, got.Target, got.Status, got.Reason, w.status)
			continue
		}
		if w.status == volley.StatusOK && got.Need != w.need {
			t.Errorf("%s %s: need %v; want %v (modifiers %+v)", w.shooter, w.weapon, got.Need, w.need, got.Modifiers)
		}
		if w.status != volley.StatusOK && got.PHit != 0 {
			t.Errorf("%s %s: p_hit %v for a shot that cannot be taken", w.shooter, w.weapon, got.PHit)
		}
		text := got.Reason + " " + strings.Join(got.Notes, " ")
		for _, m := range got.Modifiers {
			text += " " + m.Rule
		}
		if !strings.Contains(text, w.reason) {
			t.Errorf("%s %s: reason %q lacks %q", w.shooter, w.weapon, text, w.reason)
		}
	}
}

// TestArticulatedSeesOverWall: the same target, the same firer, and only the weapon
// with Articulated avoids hull down, because its extra eye is higher; the "top" reading
// puts that eye higher still.
func TestArticulatedSeesOverWall(t *testing.T) {
	b, a := sys.LoadFile(t, "checks.yaml")
	if b.options.ArticulatedFrom != ArticulatedFromCentre {
		t.Fatalf("default articulated_from = %q; want %q, as the rule is worded", b.options.ArticulatedFrom, ArticulatedFromCentre)
	}
	shots := mustPlan(t, b, a)
	cannon, centre := shots[0], shots[1]
	b.options.ArticulatedFrom = ArticulatedFromTop
	top := mustPlan(t, b, a)[1]
	if !(cannon.visible < HullDownVisibleFraction && centre.visible >= HullDownVisibleFraction && centre.visible < top.visible) {
		t.Errorf("visible: cannon %.3f, articulated from centre %.3f, from top %.3f; want the cannon hull down and the rest rising with the eye",
			cannon.visible, centre.visible, top.visible)
	}
}

// decodeAction decodes an action written in YAML against b.
func decodeAction(tb testing.TB, b *Battle, src string) (*Shooting, error) {
	tb.Helper()
	doc := rulestest.Parse(tb, "action.yaml", src)
	a, err := b.DecodeAction(doc)
	if err != nil {
		return nil, err
	}
	return a.(*Shooting), nil
}

func TestCloseQuartersInGarrison(t *testing.T) {
	b, _ := sys.LoadFile(t, "checks.yaml")
	a, err := decodeAction(t, b, "declarations:\n  - {unit: trooper, weapon: Knife, target: defender}\n")
	if err != nil {
		t.Fatal(err)
	}
	aim := rulestest.Aim(t, b, a)[0]
	if aim.Status != volley.StatusOK || aim.PHit != 1 {
		t.Errorf("knife in the same garrison: %+v; want ok and an automatic hit", aim)
	}
	// Out of the garrison the same weapon cannot reach.
	b.units[b.byID["defender"]].Garrison = ""
	if aim := rulestest.Aim(t, b, a)[0]; aim.Status != volley.StatusOutOfRange {
		t.Errorf("knife out of the garrison: %s (%s); want out_of_range", aim.Status, aim.Reason)
	}
}

func TestDecodeActionErrors(t *testing.T) {
	b, _ := sys.LoadFile(t, "checks.yaml")
	src := `squad: guns
declarations:
  - {unit: gun, weapon: Canon, target: walled}
  - {unit: trooper, weapon: Knife, target: defender}
  - {unit: gun-2, weapon: Turret, target: nobody}
  - {unit: gun-2, weapon: Turret, target: walled}
moved: {ghost: 2}
`
	_, err := decodeAction(t, b, src)
	if err == nil {
		t.Fatal("no error")
	}
	got := err.Error()
	for _, want := range []string{
		`action.yaml:3:25: unit "gun" (Gun Tank) has no weapon "Canon" (did you mean "Cannon"?)`,
		`action.yaml:4:12: unit "trooper" is in squad "troopers", not "guns"`,
		`action.yaml:5:43: unknown target "nobody"`,
		`action.yaml:6:27: unit "gun-2" already declared a target for "Turret"`,
		`action.yaml:7:16: moved: unknown unit "ghost"`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("errors lack %q; got:\n%s", want, got)
		}
	}
}

// TestPassiveAndDevastatorByHand checks the damage of one hit against arithmetic done
// by hand: Lance energy 9, Devastator 1, at armour 9 with passive 5+.
func TestPassiveAndDevastatorByHand(t *testing.T) {
	b, _ := sys.LoadFile(t, "checks.yaml")
	a, err := decodeAction(t, b, "declarations:\n  - {unit: gun-2, weapon: Lance, target: touching}\n")
	if err != nil {
		t.Fatal(err)
	}
	s := mustPlan(t, b, a)[0]
	// Die 1: nothing. 2..6: 11..15 against 9: 2 beats by 2, so every one is a critical
	// (2) plus Devastator 1 = 3 points. Passive 5+ discards each point with p = 1/3.
	q := 1.0 / 3
	want := map[int]float64{0: 1.0/6 + 5.0/6*q*q*q}
	for k := 1; k <= 3; k++ {
		want[k] = 5.0 / 6 * binom(3, k) * math.Pow(1-q, float64(k)) * math.Pow(q, float64(3-k))
	}
	got := hitDamage(&s)
	for v, p := range want {
		if math.Abs(got.P(v)-p) > 1e-12 {
			t.Errorf("P(damage=%d) = %v; want %v", v, got.P(v), p)
		}
	}
	// Energy 13 or more: passive countermeasures are not rolled.
	s.weapon = &Weapon{Energy: PassiveCountermeasureEnergyLimit}
	if passiveSave(s.target, s.weapon) != 0 {
		t.Errorf("passive countermeasures used against energy %d", PassiveCountermeasureEnergyLimit)
	}
	s.weapon.Energy = PassiveCountermeasureEnergyLimit - 1
	if passiveSave(s.target, s.weapon) != 5 {
		t.Errorf("passive countermeasures not used against energy %d", PassiveCountermeasureEnergyLimit-1)
	}
}

func binom(n, k int) float64 {
	r := 1.0
	for i := 1; i <= k; i++ {
		r = r * float64(n-k+i) / float64(i)
	}
	return r
}

// TestFailedResolveChangesNothing: an action with an impossible shot is refused and the
// battle is exactly as before.
func TestFailedResolveChangesNothing(t *testing.T) {
	b, a := sys.LoadFile(t, "checks.yaml")
	before := b.State()
	d := dice.ForAction(1, 0)
	if _, err := b.Resolve(context.Background(), a, d); err == nil {
		t.Fatal("resolve accepted shots that cannot be taken")
	} else if volley.ErrorCode(err) != volley.EINVALID {
		t.Errorf("error code %q; want %q", volley.ErrorCode(err), volley.EINVALID)
	}
	if !reflect.DeepEqual(before, b.State()) {
		t.Error("a refused action changed the battle")
	}
	if d.Len() != 0 {
		t.Errorf("a refused action rolled %d dice", d.Len())
	}
}

// TestDamageStaysAcrossActions: damage points go down and stay down; a destroyed unit
// can no longer be targeted.
func TestDamageStaysAcrossActions(t *testing.T) {
	b, a := sys.LoadFile(t, "sabres.yaml")
	for n := 0; n < 40; n++ {
		if _, err := b.Resolve(context.Background(), a, dice.ForAction(3, n)); err != nil {
			// Once the warriors are gone the machineguns' declarations are refused.
			if !strings.Contains(err.Error(), "already destroyed") {
				t.Fatalf("action %d: %v", n, err)
			}
			break
		}
		rulestest.NextRound(t, b)
	}
	u, _ := b.Unit("warriors-1")
	if !u.Destroyed() {
		t.Fatal("warriors-1 survived 40 volleys")
	}
	aims := rulestest.Aim(t, b, a)
	if aims[3].Status != volley.StatusNotEligible {
		t.Errorf("a destroyed target: %s; want not_eligible", aims[3].Status)
	}
	for _, s := range b.State().Units {
		if s.Values["damage_points"] < 0 {
			t.Errorf("%s has %v damage points", s.ID, s.Values["damage_points"])
		}
	}
}

// mustPlan is b.plan with no deadline, failing the test on an error.
func mustPlan(tb testing.TB, b *Battle, a *Shooting) []shot {
	tb.Helper()
	shots, err := b.plan(context.Background(), a)
	if err != nil {
		tb.Fatal(err)
	}
	return shots
}
