package volley_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/volley-wargames/volley"
)

// TestTellHelpers: numbers for people carry at most two decimals, a trace's words are
// tidied to them, a step's inputs read the same built in Go or read back from JSON, and
// the end of a turn reads as a sentence.
func TestTellHelpers(t *testing.T) {
	for x, want := range map[float64]string{3.162: "3.16", 6: "6", 0.5: "0.5", 14.75: "14.75", 6.375: "6.38", -0.001: "0", 18.166: "18.17"} {
		if got := volley.FormatNumber(x); got != want {
			t.Errorf("FormatNumber(%v) = %q; want %q", x, got, want)
		}
	}
	if got := volley.TidyNumbers(`moved 3.162" of 6", range 18.166 in, 0.5cm`); got != `moved 3.16" of 6", range 18.17 in, 0.5cm` {
		t.Errorf("TidyNumbers: %q", got)
	}
	built := volley.Step{Rule: "move", Inputs: map[string]any{"length": 3, "unit": "sabre-1", "fixed": true}}
	raw, _ := json.Marshal(built)
	var read volley.Step
	if err := json.Unmarshal(raw, &read); err != nil {
		t.Fatal(err)
	}
	for _, s := range []volley.Step{built, read} {
		if n, ok := s.Number("length"); !ok || n != 3 {
			t.Errorf("Number(length) of %#v = %v, %v", s.Inputs, n, ok)
		}
		if _, ok := s.Number("unit"); ok {
			t.Errorf("Number(unit) of %#v is a number", s.Inputs)
		}
		if s.Text("unit") != "sabre-1" || s.Text("length") != "3" || s.Text("fixed") != "yes" || s.Text("none") != "" {
			t.Errorf("Text of %#v: %q %q %q", s.Inputs, s.Text("unit"), s.Text("length"), s.Text("fixed"))
		}
	}
	end := volley.Step{Rule: "end of turn", Inputs: map[string]any{"side": "UCM"}, Result: "Scourge's turn 2"}
	if got := volley.TellTurnEnd(end); got != "UCM ends its turn; Scourge's turn, round 2" {
		t.Errorf("TellTurnEnd: %q", got)
	}
	if got := volley.TellTurnEnd(built); got != "" {
		t.Errorf("TellTurnEnd of a move: %q", got)
	}
	if got := volley.TellStep(end); got != "UCM ends its turn; Scourge's turn, round 2" {
		t.Errorf("TellStep of the turn's end: %q", got)
	}
	moved := volley.Step{Rule: "move", Result: "sabre-1 moved 3.0004″"}
	if got := volley.TellStep(moved); got != "sabre-1 moved 3″" {
		t.Errorf("TellStep of a move: %q; want its sentence", got)
	}
}

func ExampleFormatNumber() {
	fmt.Println(volley.FormatNumber(3.162), volley.FormatNumber(6), volley.FormatNumber(14.755))
	// Output: 3.16 6 14.76
}
