package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	vhttp "github.com/volley-wargames/volley/http"
)

// fairCmd pools the verified dice of several battles' logs and tests each roller's dice,
// size by size, against fair dice: across a player's battles, how their dice fell.
type fairCmd struct {
	Logs []string `arg:"" help:"Logs of ended battles (GET /api/battles/{id}/log); each is verified first, and only dice that replay exactly count." type:"existingfile"`
	By   []string `help:"Only these rollers: a side that rolled by hand, or 'volley' for the dice volley drew from a seed. Repeatable; all when absent." placeholder:"SIDE"`
	JSON bool     `name:"json" help:"Print JSON: the tests, one per roller and die size."`
}

// volleyRoller names the dice volley drew from a seed, in the command's words.
const volleyRoller = "volley"

func (c fairCmd) Run(e *env) error {
	var rolls []dice.Roll
	for _, path := range c.Logs {
		raw, err := os.ReadFile(path)
		if err != nil {
			return volley.Errorf(volley.EINVALID, "%v", err)
		}
		var lg vhttp.Log
		if err := json.Unmarshal(raw, &lg); err != nil {
			return volley.Errorf(volley.EINVALID, "%s is not a volley log: %v", path, err)
		}
		if _, err := vhttp.Verify(e.context(), lg); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		for _, a := range lg.Actions {
			var out struct {
				Rolls []dice.Roll `json:"rolls"`
			}
			// The log verified, so each outcome reads and its rolls are the replay's.
			if err := json.Unmarshal(a.Outcome, &out); err != nil {
				return volley.Errorf(volley.EINVALID, "%s: action %d: %v", path, a.Seq, err)
			}
			for _, r := range out.Rolls {
				if len(c.By) == 0 || slices.Contains(c.By, cmp.Or(r.By, volleyRoller)) {
					rolls = append(rolls, r)
				}
			}
		}
	}
	tests := dice.FairnessOf(rolls)
	if c.JSON {
		if tests == nil {
			tests = []dice.Fairness{}
		}
		return writeJSON(e.stdout, tests)
	}
	if len(tests) == 0 {
		fmt.Fprintln(e.stdout, "no dice to test")
		return nil
	}
	printFairness(e.stdout, tests)
	return nil
}

// printFairness writes a line for each roller's die size: the throws of each face, the
// chi-square statistic and the chance that fair dice would spread as unevenly.
func printFairness(w io.Writer, tests []dice.Fairness) {
	for _, f := range tests {
		faces := make([]string, len(f.Faces))
		for i, n := range f.Faces {
			faces[i] = fmt.Sprint(n)
		}
		how := "chi-square distribution"
		if f.Exact {
			how = "exact"
		}
		fmt.Fprintf(w, "%s's d%d: %d throws, faces 1–%d: %s; chi-square %.2f, p = %.3g (%s): %s\n",
			cmp.Or(f.By, volleyRoller), f.Sides, f.Rolls, f.Sides, strings.Join(faces, " "), f.ChiSquare, f.P, how, fairWords(f.P))
	}
}

// fairWords says what a test's p means, in words.
func fairWords(p float64) string {
	switch {
	case p < 0.001:
		return "fair dice almost never fall like this"
	case p < 0.01:
		return "unusual for fair dice (under 1 in 100)"
	case p < 0.05:
		return "a little uneven (under 1 in 20), not unusual over many tests"
	default:
		return "as fair dice fall"
	}
}
