package scenario_test

import (
	"fmt"

	"github.com/volley-wargames/volley/scenario"
)

// A rule system's scenario type embeds Header; every mistake in the file is
// reported at once, each at its place.
func ExampleDoc_Decode() {
	type weapon struct {
		Name  string          `yaml:"name,required"`
		Range scenario.Length `yaml:"range"`
		Shots int             `yaml:"shots"`
	}
	type duel struct {
		scenario.Header
		Weapons []weapon `yaml:"weapons"`
	}
	src := `ruleset: duel
weapons:
  - name: pistol
    range: 12
    shots: two
  - name: rifle
    rnage: 24
`
	doc, err := scenario.Parse("duel.yaml", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	var d duel
	if err := doc.Decode(&d); err != nil {
		fmt.Println(err)
	}
	// Output:
	// duel.yaml:5:12: shots: want a whole number, got "two"
	// duel.yaml:7:5: unknown field "rnage" (did you mean "range"?)
}

// After decoding, a rule can report its own error at the place a value was
// written.
func ExampleDoc_Errorf() {
	type scene struct {
		scenario.Header
		Range scenario.Length `yaml:"range"`
	}
	doc, err := scenario.Parse("s.yaml", []byte("ruleset: r\ndistances: cm\nrange: 300\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	var s scene
	if err := doc.Decode(&s); err != nil {
		fmt.Println(err)
		return
	}
	const table = 72 // inches
	if s.Range.Inches() > table {
		fmt.Println(doc.Errorf(&s.Range, "range %.0fcm is longer than the table", s.Range.In(doc.Unit())))
	}
	// Output:
	// s.yaml:3:8: range 300cm is longer than the table
}

func ExampleParseLength() {
	for _, text := range []string{`4"`, "4 in", "10cm", "12", "4 parsecs"} {
		l, err := scenario.ParseLength(text, scenario.Inch)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s = %.3f in\n", text, l.Inches())
	}
	// Output:
	// 4" = 4.000 in
	// 4 in = 4.000 in
	// 10cm = 3.937 in
	// 12 = 12.000 in
	// unknown unit "parsecs" in length "4 parsecs" (want in, " or cm)
}
