package http_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/volley-wargames/volley/browsertest"
)

// basePoint is the viewport point of a unit's first rectangular base.
func basePoint(id string) string {
	return browsertest.Centre(fmt.Sprintf("#board [data-unit=%q] polygon.base", id))
}

// TestPageRepublique drives a Republique battle on the page, which learns what the
// action needs from the view: the battery's arc, frontage zone and centre of fire are
// drawn, pointing at another unit shows the forced main target and its reason, the
// battery fires at its main target, and the log verifies after the battle ends.
func TestPageRepublique(t *testing.T) {
	p := newBrowserPage(t)
	demo := example(t, "republique/demo.yaml")
	// Begin in the artillery segment, so that the batteries may fire at once.
	src := strings.Replace(string(demo), "step: skirmish", "step: artillery", 1)
	p.create(func() { p.Do(chromedp.SetValue(chromedp.CSS("#scenario"), src)) })
	p.Wait("rectangular bases", `document.querySelectorAll('#board polygon.base.rect').length > 20`)
	p.Choose("#firer", "g2")
	p.Wait("the arc, frontage zone and centre of fire", `['arc', 'zone', 'line'].every(k => document.querySelector('#board [data-overlay="' + k + '"]'))`)
	p.Mouse(basePoint("IR7"), false, false)
	p.Wait("the aim at IR7", `document.querySelector('#aim-reason')?.textContent.includes('not the main target')`)
	if got := p.Text("#aim-reason"); !strings.Contains(got, "IR3") {
		t.Errorf("the forced target is not named: %q", got)
	}
	p.Screenshot("republique-forced")
	p.Wait("the odds of the main target", `document.querySelector('#hist-IR3')`)
	p.Click("#shoot")
	p.Wait("the fire in the log", `document.querySelectorAll('#log tr.die').length > 0`)
	p.Screenshot("republique-fired")
	if errs := eval[string](p, `[...document.querySelectorAll('#act-error:not([hidden])')].map(e => e.textContent).join(' | ')`); errs != "" {
		t.Errorf("the fire was refused: %s", errs)
	}
	// Its odds now say why it may not fire again.
	p.Wait("the refusal to fire twice", `document.querySelector('#odds')?.textContent.includes('fires once each player turn')`)
	eval[bool](p, `(window.confirm = () => true, true)`)
	p.Click("#end-battle")
	p.Click("#verify")
	p.Wait("the verification", `document.querySelector('#verify-result .ok')`)
	if got := p.Text("#verify-result"); !strings.Contains(got, "Verified: 1 actions") {
		t.Errorf("verification reads %q", got)
	}
}
