package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/dice"
	vhttp "github.com/volley-wargames/volley/http"
	"github.com/volley-wargames/volley/opponent"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// playCmd plays a battle to its end with volley's opponent on the sides it is given,
// and the random baseline on the others.
type playCmd struct {
	File string   `arg:"" help:"Scenario file: a battle with an end: section (examples/<system>/battle.yaml)."`
	Bot  []string `help:"A side volley plays, and how: SIDE[:LEVEL[:STYLE]], LEVEL one of random, greedy, teaching, strong (the default), STYLE cautious, careful, balanced (the default), bold, reckless or 0–1. Repeat for each side; a side without one plays random." placeholder:"SIDE[:LEVEL]"`
	Seed uint64   `default:"1" help:"Seeds the battle's dice and the players' random choices."`
	Log  string   `help:"Write the battle's log here, as GET /api/battles/{id}/log gives it: volley verify checks it." placeholder:"FILE"`
	output
}

// playLoad opens a battle file as a game: the scenario, its end, and a fresh battle.
func playLoad(path string) (*scenario.Doc, []byte, func() (*volley.Game, error), error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, nil, volley.Errorf(volley.EINVALID, "%v", err)
	}
	doc, err := scenario.Parse(path, src)
	if err != nil {
		return nil, nil, nil, err
	}
	newGame := func() (*volley.Game, error) {
		doc, err := scenario.Parse(path, src)
		if err != nil {
			return nil, err
		}
		_, b, _, err := rules.Open(doc)
		if err != nil {
			return nil, err
		}
		end, err := volley.ReadEnd(doc, b)
		if err != nil {
			return nil, err
		}
		return volley.NewGame(b, end), nil
	}
	if _, err := newGame(); err != nil {
		return nil, nil, nil, err
	}
	return doc, src, newGame, nil
}

func (c playCmd) Run(e *env) error {
	doc, src, newGame, err := playLoad(c.File)
	if err != nil {
		return err
	}
	g, _ := newGame()
	sides := volley.Sides(g.Battle().State())
	players := map[string]*opponent.Player{}
	for _, b := range c.Bot {
		side, level, _ := strings.Cut(b, ":")
		if !slices.Contains(sides, side) {
			return usageError{fmt.Errorf("--bot %s: no side %q (the sides: %s)", b, side, strings.Join(sides, ", "))}
		}
		if level == "" {
			level = string(opponent.Strong)
		}
		p, err := opponent.ParsePolicy(level)
		if err != nil {
			return usageError{fmt.Errorf("--bot %s: %w", b, err)}
		}
		players[side] = &opponent.Player{Policy: p, Side: side}
	}
	for _, s := range sides {
		if players[s] == nil {
			players[s] = &opponent.Player{Policy: opponent.Policy{Level: opponent.Random}, Side: s}
		}
	}
	seed := playSeed(c.Seed, src)
	m := &opponent.Match{Game: g, Players: players, Seed: seed}
	if err := m.Play(e.context()); err != nil {
		return err
	}
	name, _ := doc.Ruleset()
	rs, _ := rules.Lookup(name)
	lg := playLog(doc, src, name, seed, m)
	if c.Log != "" {
		raw, _ := json.MarshalIndent(lg, "", "  ")
		if err := os.WriteFile(c.Log, append(raw, '\n'), 0o644); err != nil {
			return volley.Errorf(volley.EINVALID, "--log: %v", err)
		}
	}
	r := g.Result()
	if c.JSON {
		return writeJSON(e.stdout, struct {
			Ruleset string            `json:"ruleset"`
			Players map[string]string `json:"players"`
			Result  volley.Result     `json:"result"`
			Log     vhttp.Log         `json:"log"`
		}{name, playerNames(players), r, lg})
	}
	fmt.Fprintf(e.stdout, "%s — %s\n", name, titleOf(doc))
	for _, s := range sides {
		fmt.Fprintf(e.stdout, "  %s: %s\n", s, players[s].Policy)
	}
	fmt.Fprintln(e.stdout)
	for _, en := range m.Log {
		fmt.Fprintf(e.stdout, "#%d %s", en.Seq, en.Side)
		if en.Why != "" {
			fmt.Fprintf(e.stdout, " — %s", en.Why)
		}
		fmt.Fprintln(e.stdout)
		for _, line := range volley.Tell(rs, en.Outcome) {
			fmt.Fprintf(e.stdout, "    %s\n", line)
		}
	}
	fmt.Fprintln(e.stdout)
	writeResult(e, r, sides)
	if c.Log != "" {
		fmt.Fprintf(e.stdout, "log written to %s (volley verify %s)\n", c.Log, c.Log)
	}
	return nil
}

// writeResult says how a battle ended.
func writeResult(e *env, r volley.Result, sides []string) {
	if !r.Over {
		fmt.Fprintln(e.stdout, "The battle did not end: nobody had anything left to do, or it ran past the most actions played.")
	} else {
		fmt.Fprintf(e.stdout, "The battle is over: %s.\n", r.Reason)
	}
	for _, s := range sides {
		fmt.Fprintf(e.stdout, "  %s: %g\n", s, r.Scores[s])
	}
	switch {
	case !r.Over:
	case r.Winner == "":
		fmt.Fprintln(e.stdout, "A draw.")
	default:
		fmt.Fprintf(e.stdout, "%s wins.\n", r.Winner)
	}
}

func playerNames(ps map[string]*opponent.Player) map[string]string {
	out := map[string]string{}
	for s, p := range ps {
		out[s] = p.Policy.String()
	}
	return out
}

// playSeed is the secret of a battle played on the command line: ChaCha8, as a server's
// battles roll, keyed with the SHA-256 of the seed and the scenario.
func playSeed(n uint64, src []byte) dice.Seed {
	sum := sha256.Sum256(fmt.Appendf(nil, "volley play %d\n%s", n, src))
	return dice.Seed{Generator: dice.GeneratorChaCha8, Bytes: sum[:]}
}

// playLog writes a played battle as a server's log: what volley verify checks.
func playLog(doc *scenario.Doc, src []byte, ruleset string, seed dice.Seed, m *opponent.Match) vhttp.Log {
	id := sha256.Sum256(append([]byte("volley play battle\n"), seed.Bytes...))
	rec := &volley.BattleRecord{ID: hex.EncodeToString(id[:8]), Ruleset: ruleset, Scenario: string(src), Edition: volley.Edition, Seed: seed}
	rec.Commitment = volley.Commitment(rec)
	s := seed.String()
	lg := vhttp.Log{ID: rec.ID, Ruleset: ruleset, Title: titleOf(doc), Edition: rec.Edition, Generator: string(seed.Generator),
		Scenario: rec.Scenario, Commitment: rec.Commitment, Ended: true, Seed: &s, Actions: []vhttp.LogEntry{}}
	for _, en := range m.Log {
		out, _ := json.Marshal(en.Outcome)
		lg.Actions = append(lg.Actions, vhttp.LogEntry{Seq: en.Seq, Side: en.Side, Action: en.Body, Outcome: out})
	}
	return lg
}

// tourneyCmd plays a series of battles between two policies, sides swapped every other
// battle.
type tourneyCmd struct {
	File    string `arg:"" help:"Scenario file: a battle of two sides with an end: section."`
	A       string `required:"" help:"The policy measured: LEVEL[:STYLE]." placeholder:"POLICY"`
	B       string `required:"" help:"The policy it plays: LEVEL[:STYLE]." placeholder:"POLICY"`
	Battles int    `default:"20" help:"How many battles, a taking each side in turn."`
	Seed    uint64 `default:"1" help:"Seeds every battle's dice and the players' random choices."`
	output
}

func (c tourneyCmd) Run(e *env) error {
	a, err := opponent.ParsePolicy(c.A)
	if err != nil {
		return usageError{fmt.Errorf("--a: %w", err)}
	}
	b, err := opponent.ParsePolicy(c.B)
	if err != nil {
		return usageError{fmt.Errorf("--b: %w", err)}
	}
	if c.Battles < 1 || c.Battles > 10000 {
		return usageError{fmt.Errorf("--battles: from 1 to 10000")}
	}
	_, _, newGame, err := playLoad(c.File)
	if err != nil {
		return err
	}
	var progress func(int)
	if e.terminal {
		progress = func(done int) { fmt.Fprintf(e.stderr, "\r%d/%d battles", done, c.Battles) }
	}
	t, err := opponent.PlayTourney(e.context(), newGame, a, b, c.Battles, c.Seed, progress)
	if progress != nil {
		fmt.Fprintln(e.stderr)
	}
	if err != nil {
		return err
	}
	if c.JSON {
		return writeJSON(e.stdout, struct {
			A string `json:"a"`
			B string `json:"b"`
			*opponent.Tourney
		}{a.String(), b.String(), t})
	}
	fmt.Fprintf(e.stdout, "%s against %s, %d battles (sides swapped every other battle)\n", a, b, t.Battles)
	fmt.Fprintf(e.stdout, "  %s wins %d, draws %d, loses %d: %.1f%% of the points (a draw half), 95%% between %.1f%% and %.1f%%\n",
		a, t.WinsA, t.Draws, t.WinsB, 100*(float64(t.WinsA)+float64(t.Draws)/2)/float64(t.Battles), 100*t.Low, 100*t.High)
	fmt.Fprintf(e.stdout, "  mean score: %s %.2f, %s %.2f\n", a, t.ScoreA, b, t.ScoreB)
	if t.Unfinished > 0 {
		fmt.Fprintf(e.stdout, "  %d battles did not end (counted as draws)\n", t.Unfinished)
	}
	fmt.Fprintf(e.stdout, "  a turn planned in: %s %.0f ms median, %.0f ms at the 95th percentile; %s %.0f ms, %.0f ms\n",
		a, t.TurnA.P50, t.TurnA.P95, b, t.TurnB.P50, t.TurnB.P95)
	fmt.Fprintf(e.stdout, "  its CPU time (all threads): %s %.0f ms median, %.0f ms at the 95th percentile; %s %.0f ms, %.0f ms\n",
		a, t.CPUA.P50, t.CPUA.P95, b, t.CPUB.P50, t.CPUB.P95)
	return nil
}
