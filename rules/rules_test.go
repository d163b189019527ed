package rules_test

import (
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

type fake struct{ name string }

func (f fake) Name() string { return f.name }
func (f fake) Load(*scenario.Doc) (volley.Battle, volley.Action, error) {
	return nil, nil, nil
}

func TestRegister(t *testing.T) {
	rules.Register(fake{"fake-a"})
	if _, ok := rules.Lookup("fake-a"); !ok {
		t.Fatal("registered system not found")
	}
	if !strings.Contains(strings.Join(rules.Names(), ","), "fake-a") {
		t.Errorf("Names() = %v lacks fake-a", rules.Names())
	}
	defer func() {
		if recover() == nil {
			t.Error("registering a name twice did not panic")
		}
	}()
	rules.Register(fake{"fake-a"})
}

func TestOpenUnknownRuleset(t *testing.T) {
	doc, err := scenario.Parse("x.yaml", []byte("title: t\nruleset: dropzon\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, _, _, err = rules.Open(doc)
	if err == nil || !strings.HasPrefix(err.Error(), `x.yaml:2:10: unknown ruleset "dropzon"`) {
		t.Errorf("Open: %v; want the position of the ruleset value", err)
	}
}
