package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// loaded is a scenario file opened with its rule system.
type loaded struct {
	path    string
	doc     *scenario.Doc
	title   string
	ruleset volley.Ruleset
	battle  volley.Battle
	// action is the action asked about: the scenario's only one, or the last of its
	// script once the ones before it are played (open). script is every action.
	action volley.Action
	script *rules.Script
}

// open reads and loads a scenario file; needAction refuses files without an action. A
// scenario of several actions (action:, then actions:) has the ones before the last
// played, with the dice of seed 0, so that the last (a shot after a move) is asked of the
// battle they leave.
func open(path string, needAction bool) (*loaded, error) {
	l, err := load(path, needAction, rules.Open)
	if err != nil {
		return nil, err
	}
	if n := l.script.Len(); n > 0 {
		if _, err := l.script.Play(context.Background(), l.battle, 0, n-1); err != nil {
			return nil, err
		}
		if l.action, _, err = l.script.Action(n-1, l.battle); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// load reads a scenario file and loads it with how: rules.Open, or rules.Check, which
// adds the rules' refusals of its action.
func load(path string, needAction bool, how func(*scenario.Doc) (volley.Ruleset, volley.Battle, volley.Action, error)) (*loaded, error) {
	doc, err := scenario.ParseFile(path)
	if err != nil {
		var list scenario.ErrorList
		if errors.As(err, &list) {
			return nil, err
		}
		// A file that cannot be read is the user's input at fault, not volley.
		return nil, volley.Errorf(volley.EINVALID, "%v", err)
	}
	rs, b, a, err := how(doc)
	if err != nil {
		return nil, err
	}
	script, err := rules.ScriptOf(doc, a)
	if err != nil {
		return nil, err
	}
	l := &loaded{path: path, doc: doc, ruleset: rs, battle: b, action: a, title: titleOf(doc), script: script}
	if needAction && script.Len() == 0 {
		var list scenario.ErrorList
		list.Add(doc.Root(), "this scenario has no action: section (nor actions:), so there is nothing to aim, count or roll")
		return nil, list.Err()
	}
	return l, nil
}

// titleOf reads the optional title without failing on the rest of the document.
func titleOf(doc *scenario.Doc) string {
	sec := doc.Section("title")
	if sec == nil {
		return ""
	}
	var t string
	if err := sec.Decode(&t); err != nil {
		return ""
	}
	return t
}

// output is the shared --json flag.
type output struct {
	JSON bool `help:"Print the one JSON shape volley uses everywhere instead of text for people."`
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

type checkCmd struct {
	Files []string `arg:"" name:"file" help:"Scenario files (YAML or JSON)."`
}

func (c checkCmd) Run(e *env) error {
	var all scenario.ErrorList
	failed := 0
	check := func(doc *scenario.Doc) (volley.Ruleset, volley.Battle, volley.Action, error) {
		return rules.Check(e.context(), doc)
	}
	for _, f := range c.Files {
		l, err := load(f, false, check)
		if err != nil {
			failed++
			var list scenario.ErrorList
			if errors.As(err, &list) {
				all = append(all, list...)
			} else {
				all = append(all, &scenario.Error{Pos: scenario.Pos{File: f}, Msg: err.Error()})
			}
			continue
		}
		fmt.Fprintf(e.stdout, "%s: ok (%s, %d units)\n", f, l.ruleset.Name(), len(l.battle.State().Units))
		if n, ok := l.battle.(volley.Noter); ok {
			for _, note := range n.Notes() {
				fmt.Fprintf(e.stdout, "  note: %s\n", note)
			}
		}
	}
	if failed > 0 {
		return all.Err()
	}
	return nil
}

type aimCmd struct {
	File string `arg:"" help:"Scenario file with an action: section."`
	asking
	output
}

func (c aimCmd) Run(e *env) error {
	l, q, err := c.ask(e, c.File)
	if err != nil {
		return err
	}
	given, err := q.Aims(e.context())
	if err != nil {
		return err
	}
	if c.JSON {
		return answerJSON(e, l, given, answerOf(l, q, given, nil))
	}
	writeAnswered(e.stdout, l, q, given, false)
	if board, ok := l.battle.(volley.Board); ok && len(given) == 1 && len(given[0].Aims) > 0 {
		writeBoard(e.stdout, board.Board(), &given[0].Aims[0])
	}
	return nothingFires(e, l, given)
}

// answer is aim's and odds' answer in JSON.
type answer struct {
	Ruleset string      `json:"ruleset"`
	Script  *scriptJSON `json:"script,omitempty"`
	// Aims, when the battles the action is asked of disagree on them, give way to
	// Given: each group of battles with their chance.
	Aims  *[]volley.Aim `json:"aims,omitempty"`
	Given []rules.Given `json:"given,omitempty"`
	// Odds is odds' answer (its own aims left out for Aims), nil for aim's.
	*volley.Odds
}

// answerOf is the answer to the action asked, with odds when there are.
func answerOf(l *loaded, q *rules.Asked, given []rules.Given, odds *volley.Odds) answer {
	out := answer{Ruleset: l.ruleset.Name(), Script: scriptOf(l, q), Odds: odds}
	if len(given) == 1 {
		out.Aims = &given[0].Aims
	} else {
		out.Given = given
	}
	return out
}

// answerJSON writes aim's or odds' answer out as JSON, then fails as nothingFires says.
func answerJSON(e *env, l *loaded, given []rules.Given, out any) error {
	if err := writeJSON(e.stdout, out); err != nil {
		return err
	}
	return nothingFires(e, l, given)
}

// writeAnswered writes, for people, the heading of aim's or odds' answer, the action
// asked about and its aims (odds: with how its numbers are mixed).
func writeAnswered(w io.Writer, l *loaded, q *rules.Asked, given []rules.Given, odds bool) {
	writeHeading(w, l)
	writeAsked(w, l, q, odds)
	writeGiven(w, q, given)
}

// nothingFires is the error of an action of which no shot can be taken, after its aims
// are shown: the rules' refusals, each at its declaration, so that aim and odds exit 1
// and say why, as check does. An action of which some shot can be taken, and one the
// rules allow (ending a step, say), is not an error.
func nothingFires(e *env, l *loaded, given []rules.Given) error {
	if fires(given) {
		return nil
	}
	ref, ok := l.battle.(volley.Refuser)
	if !ok {
		return nil
	}
	list, err := ref.Refusals(e.context(), l.action)
	if err != nil {
		return err
	}
	return list.Err()
}

type oddsCmd struct {
	File string `arg:"" help:"Scenario file with an action: section."`
	asking
	output
	Plot string `help:"Also draw the distributions into this file (.png or .svg)." placeholder:"FILE"`
}

func (c oddsCmd) Run(e *env) error {
	if err := checkPlotName(c.Plot); err != nil {
		return err
	}
	l, q, err := c.ask(e, c.File)
	if err != nil {
		return err
	}
	odds, given, err := q.Odds(e.context())
	if err != nil {
		return err
	}
	board, onGrid := l.battle.(volley.Board)
	if c.Plot != "" {
		var err error
		if onGrid && len(odds.Squares) > 0 {
			err = plotBoard(c.Plot, l, board.Board(), odds)
		} else {
			err = plotOdds(c.Plot, l, odds)
		}
		if err != nil {
			return err
		}
	}
	if c.JSON {
		return answerJSON(e, l, given, answerOf(l, q, given, &odds))
	}
	writeAnswered(e.stdout, l, q, given, true)
	if onGrid {
		writeHeat(e.stdout, board.Board(), odds.Squares)
	}
	writeTargets(e.stdout, odds.Targets)
	writeJoint(e.stdout, odds.Joint)
	writeValues(e.stdout, odds.Values)
	if c.Plot != "" {
		fmt.Fprintf(e.stdout, "\nplot written to %s\n", c.Plot)
	}
	return nothingFires(e, l, given)
}

type resolveCmd struct {
	File string `arg:"" help:"Scenario file with an action: section."`
	Seed uint64 `required:"" help:"The battle's seed: the same seed gives the same dice on every machine."`
	output
}

func (c resolveCmd) Run(e *env) error {
	l, err := load(c.File, true, rules.Open)
	if err != nil {
		return err
	}
	// The scenario's actions are actions 0, 1, … of a battle played with this seed.
	var outs []volley.Outcome
	var kinds []string
	for i := range l.script.Len() {
		a, at, err := l.script.Action(i, l.battle)
		if err != nil {
			return err
		}
		out, err := l.battle.Resolve(e.context(), a, dice.ForAction(c.Seed, i))
		if err != nil {
			// The rules refused one of the file's own actions: say where it is written.
			if at == nil {
				at = l.doc.Section("action")
			}
			if at != nil && volley.ErrorCode(err) != volley.EINTERNAL {
				return scenario.ErrorList{{Pos: at.Root(), Msg: err.Error()}}
			}
			return err
		}
		outs, kinds = append(outs, out), append(kinds, a.Kind())
	}
	if c.JSON {
		if len(outs) == 1 {
			return writeJSON(e.stdout, struct {
				Ruleset string `json:"ruleset"`
				Seed    uint64 `json:"seed"`
				volley.Outcome
				State volley.State `json:"state"`
			}{l.ruleset.Name(), c.Seed, outs[0], l.battle.State()})
		}
		type played struct {
			Kind string `json:"kind"`
			volley.Outcome
		}
		list := make([]played, len(outs))
		for i := range outs {
			list[i] = played{kinds[i], outs[i]}
		}
		return writeJSON(e.stdout, struct {
			Ruleset string       `json:"ruleset"`
			Seed    uint64       `json:"seed"`
			Actions []played     `json:"actions"`
			State   volley.State `json:"state"`
		}{l.ruleset.Name(), c.Seed, list, l.battle.State()})
	}
	writeHeading(e.stdout, l)
	for i, out := range outs {
		if len(outs) > 1 {
			fmt.Fprintf(e.stdout, "\naction %d: %s\n", i+1, kinds[i])
		}
		writeOutcome(e.stdout, out)
	}
	return nil
}

type simCmd struct {
	File   string `arg:"" help:"Scenario file with an action: section."`
	Trials int    `default:"100000" help:"How many times to roll the action."`
	Seed   uint64 `default:"1" help:"Seed of the simulation's dice."`
	output
}

// maxTrials bounds a simulation so a typo cannot run for a day.
const maxTrials = 1_000_000_000

func (c simCmd) Run(e *env) error {
	if c.Trials < 1 || c.Trials > maxTrials {
		return usageError{fmt.Errorf("--trials must lie between 1 and %d", maxTrials)}
	}
	l, err := open(c.File, true)
	if err != nil {
		return err
	}
	sampler, ok := l.battle.(volley.Sampler)
	if !ok {
		return volley.Errorf(volley.ENOTSUPPORTED, "%s cannot be simulated yet", l.ruleset.Name())
	}
	sim, err := sampler.Sampler(l.action)
	if err != nil {
		return err
	}
	exact, err := l.battle.Odds(e.context(), l.action)
	if err != nil {
		return err
	}
	var done atomic.Int64
	stop := make(chan struct{})
	finished := make(chan struct{})
	if e.terminal && !c.JSON {
		go progress(e.stderr, int64(c.Trials), &done, stop, finished)
	} else {
		close(finished)
	}
	res := volley.Simulate(sim, c.Seed, c.Trials, &done)
	close(stop)
	<-finished
	if c.JSON {
		return writeJSON(e.stdout, struct {
			Ruleset string `json:"ruleset"`
			volley.SimResult
			Exact []volley.TargetOdds `json:"exact"`
		}{l.ruleset.Name(), res, exact.Targets})
	}
	writeHeading(e.stdout, l)
	writeSim(e.stdout, res, exact.Targets)
	return nil
}

// progress draws a bar on a terminal, refreshed from a ticker rather than per trial so
// that simulation runs at full speed.
func progress(w io.Writer, total int64, done *atomic.Int64, stop <-chan struct{}, finished chan<- struct{}) {
	defer close(finished)
	bar := progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("rolling"),
		progressbar.OptionShowCount(),
		progressbar.OptionShowIts(),
		progressbar.OptionSetItsString("trials"),
		progressbar.OptionClearOnFinish(),
	)
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			_ = bar.Set64(done.Load())
		case <-stop:
			_ = bar.Set64(done.Load())
			_ = bar.Finish()
			return
		}
	}
}

type diceCmd struct {
	Expr string   `arg:"" help:"A dice expression: 2d6+1, d3, D6+E, 3d6-2, d%."`
	Var  []string `short:"v" help:"Bind a variable, as E=3." placeholder:"NAME=N"`
	output
}

func (c diceCmd) Run(e *env) error {
	x, err := dice.ParseExpr(c.Expr)
	if err != nil {
		return volley.Errorf(volley.EINVALID, "%v", err)
	}
	vars := map[string]int{}
	for _, v := range c.Var {
		name, val, ok := strings.Cut(v, "=")
		var n int
		if _, err := fmt.Sscan(val, &n); !ok || err != nil {
			return usageError{fmt.Errorf("--var %q: want NAME=N", v)}
		}
		if n < -dice.MaxNumber || n > dice.MaxNumber {
			return usageError{fmt.Errorf("--var %q: the value must lie within ±%d", v, dice.MaxNumber)}
		}
		vars[name] = n
	}
	d, err := x.Dist(vars)
	if err != nil {
		return volley.Errorf(volley.EINVALID, "%v", err)
	}
	if c.JSON {
		return writeJSON(e.stdout, struct {
			Expr         string    `json:"expr"`
			Distribution dice.Dist `json:"distribution"`
			Mean         float64   `json:"mean"`
			StdDev       float64   `json:"stddev"`
		}{x.String(), d, d.Mean(), d.StdDev()})
	}
	fmt.Fprintf(e.stdout, "%s   mean %.4g   sd %.4g\n", x, d.Mean(), d.StdDev())
	writeDist(e.stdout, "", d)
	return nil
}

// checkPlotName refuses a --plot file whose name says neither PNG nor SVG, before any
// work; no --plot ("") asks for none.
func checkPlotName(name string) error {
	if name == "" {
		return nil
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".png", ".svg":
		return nil
	}
	return usageError{fmt.Errorf("--plot %s: the file must end in .png or .svg", name)}
}
