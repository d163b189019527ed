package main

import (
	"fmt"
	"io"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
)

// asking is what aim and odds share: which action of a scenario's script they answer,
// and whether over every way the dice of the actions before it may fall or given one
// roll of them.
type asking struct {
	Action int     `help:"The action of the scenario's script to ask about, from 1 (action: first, then each of actions:); the default is the last. The actions before it are played first." placeholder:"N"`
	Seed   *uint64 `help:"Play the actions before the one asked about with the dice of this seed, as volley resolve --seed rolls them, and answer given that one roll; without it the answer is exact over every way their dice may fall." placeholder:"N"`
}

// ask opens a scenario with an action and readies the action asked about: the battles
// the actions before it may leave (rules.Script.Ask).
func (q asking) ask(e *env, path string) (*loaded, *rules.Asked, error) {
	l, err := load(path, true, rules.Open)
	if err != nil {
		return nil, nil, err
	}
	n := l.script.Len()
	if q.Action < 0 || q.Action > n {
		return nil, nil, usageError{fmt.Errorf("--action %d: the scenario has %d action(s), numbered from 1", q.Action, n)}
	}
	if q.Action > 0 {
		n = q.Action
	}
	asked, err := l.script.Ask(e.context(), l.battle, n-1, q.Seed)
	if err != nil {
		return nil, nil, err
	}
	// The battle the page of answers draws (a grid's board) and asks for refusals is the
	// likeliest of them.
	best := 0
	for i, br := range asked.Branches {
		if br.P > asked.Branches[best].P {
			best = i
		}
	}
	l.battle, l.action = asked.Branches[best].Battle, asked.Actions[best]
	return l, asked, nil
}

// scriptJSON says, in JSON, which action of a script of several is answered and of which
// battles: every way the dice of the ones before it fall (ways, battles), or the one
// roll of seed.
type scriptJSON struct {
	Action  int     `json:"action"`
	Of      int     `json:"of"`
	Kind    string  `json:"kind"`
	Ways    int64   `json:"ways,omitempty"`
	Battles int     `json:"battles,omitempty"`
	Seed    *uint64 `json:"seed,omitempty"`
}

// scriptOf is the script part of an answer, nil for a scenario of one action.
func scriptOf(l *loaded, q *rules.Asked) *scriptJSON {
	if l.script.Len() < 2 {
		return nil
	}
	s := &scriptJSON{Action: q.N + 1, Of: l.script.Len(), Kind: q.Kind, Seed: q.Seed}
	if q.Seed == nil && !q.Move {
		s.Ways, s.Battles = q.Ways, len(q.Branches)
	}
	return s
}

// writeAsked says, for people, which action of a script of several is answered and of
// which battles; odds adds how its numbers are mixed. Nothing for a scenario of one
// action.
func writeAsked(w io.Writer, l *loaded, q *rules.Asked, odds bool) {
	if l.script.Len() < 2 {
		return
	}
	fmt.Fprintf(w, "\nAction %d of %d (%s)", q.N+1, l.script.Len(), q.Kind)
	before := "action 1"
	if q.N > 1 {
		before = fmt.Sprintf("actions 1–%d", q.N)
	}
	switch {
	case q.N == 0:
		fmt.Fprintln(w, ", the first")
	case q.Move:
		fmt.Fprintf(w, ": it rolls no die and declares no shot, whatever the dice of %s do\n", before)
	case q.Seed != nil:
		fmt.Fprintf(w, ", given the dice of seed %d for %s (as volley resolve --seed %d rolls them): one roll of theirs, not the odds over all\n", *q.Seed, before, *q.Seed)
	case q.Ways == 1:
		fmt.Fprintf(w, ", after %s, which roll no dice\n", before)
	case len(q.Branches) == 1:
		fmt.Fprintf(w, ", exact over every way the dice of %s fall: %d ways, all leaving the same battle\n", before, q.Ways)
	default:
		fmt.Fprintf(w, ", exact over every way the dice of %s fall: %d ways, leaving %d different battles", before, q.Ways, len(q.Branches))
		if odds {
			fmt.Fprint(w, "; every chance below is over all of them, every value its mean")
		}
		fmt.Fprintln(w)
	}
}

// writeGiven writes the aims of the action asked about: once when every battle agrees on
// them, else for each group of battles with their chance. An action without a shot (a
// move, a turn's end) says so.
func writeGiven(w io.Writer, q *rules.Asked, given []rules.Given) {
	if len(given) == 1 {
		writeAimsTitled(w, "Shots", given[0].Aims)
		if len(given[0].Aims) == 0 {
			fmt.Fprintf(w, "  none: action %d (%s) declares no shot", q.N+1, q.Kind)
			if q.N > 0 {
				fmt.Fprint(w, "; ask about another action of the scenario with --action N")
			}
			fmt.Fprintln(w)
		}
		return
	}
	for _, g := range given {
		writeAimsTitled(w, fmt.Sprintf("Shots, %s of the time", pct(g.P)), g.Aims)
	}
}

// fires reports whether a shot of the action asked about can be taken in some battle.
func fires(given []rules.Given) bool {
	for _, g := range given {
		for _, a := range g.Aims {
			if a.Status == volley.StatusOK {
				return true
			}
		}
	}
	return false
}
