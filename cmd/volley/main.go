// Command volley resolves wargame shooting: it checks scenario files, shows what every
// shot needs and why it may not be taken (aim), computes the exact odds of every outcome
// (odds), rolls seeded, recorded dice (resolve), and cross-checks the odds by Monte Carlo
// (sim).
//
// Exit status: 0 ok, 1 bad input (the message is on stderr), 2 bad usage, 3 an internal
// error (a bug: please report it).
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"strings"

	"github.com/alecthomas/kong"
	"golang.org/x/term"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"

	// The rule systems, registered from init. This is the only place that names them.
	_ "github.com/volley-wargames/volley/rules/dropzone"
	_ "github.com/volley-wargames/volley/rules/republique"
	_ "github.com/volley-wargames/volley/rules/warengine"
	_ "github.com/volley-wargames/volley/rules/warfare"
	_ "github.com/volley-wargames/volley/rules/warstrike"
)

// Exit statuses.
const (
	exitOK       = 0
	exitInput    = 1 // bad input: a scenario, a file, an action that cannot be taken
	exitUsage    = 2 // bad flags or arguments
	exitInternal = 3 // a bug in volley or a failure of the machine
)

// cli is the command line. Each command is a struct with a Run method.
type cli struct {
	Rulesets rulesetsCmd `cmd:"" help:"List the rule systems volley knows."`
	Check    checkCmd    `cmd:"" help:"Check a scenario file and report every problem in it."`
	Aim      aimCmd      `cmd:"" help:"Show whether each declared shot is possible, why not, its modifiers and chance to hit."`
	Odds     oddsCmd     `cmd:"" help:"Exact distribution of every outcome of the scenario's action, without rolling."`
	Resolve  resolveCmd  `cmd:"" help:"Roll the scenario's action with seeded dice and show every die and step."`
	Sim      simCmd      `cmd:"" help:"Monte Carlo simulation of the action, compared with the exact odds."`
	Compare  compareCmd  `cmd:"" help:"Two scenarios side by side: the spread of one measure on one target of each."`
	Advise   adviseCmd   `cmd:"" help:"The best fire plans of a squad, unit or battery, by their exact odds."`
	Danger   dangerCmd   `cmd:"" help:"Map where a unit is in danger: the best the other side could do to it on every point."`
	Position positionCmd `cmd:"" help:"Where a unit should move: every point it can reach, scored by its best fire from there and the danger there."`
	Dice     diceCmd     `cmd:"" help:"Exact distribution of a dice expression such as 2d6+1."`
	Serve    serveCmd    `cmd:"" help:"Serve the JSON API: battles that persist, with verifiable dice."`
	Verify   verifyCmd   `cmd:"" help:"Check a finished battle's log against its revealed seed."`
	Fair     fairCmd     `cmd:"" help:"Test the dice of finished battles' logs against fair dice, roller by roller and die size by size."`
	Play     playCmd     `cmd:"" help:"Play a battle to its end with volley's opponent on the sides you name."`
	Tourney  tourneyCmd  `cmd:"" help:"Play a series of battles between two of volley's policies, sides swapped."`
	Schema   schemaCmd   `cmd:"" help:"Print the JSON Schema of the scenario format, for editors that complete and check scenario files."`
	New      newCmd      `cmd:"" help:"Print a small commented scenario of a rule system to start from."`
}

// env is what commands write to; tests swap it.
type env struct {
	stdout, stderr io.Writer
	// terminal is true when stderr is a terminal: progress bars only then.
	terminal bool
	// ctx ends when the user interrupts volley (Ctrl-C), so that a long computation
	// stops; nil means never.
	ctx context.Context
}

// context is the context of a command's work.
func (e *env) context() context.Context {
	if e.ctx == nil {
		return context.Background()
	}
	return e.ctx
}

// usageError marks an error in how volley was called, as opposed to bad input.
type usageError struct{ error }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	status := run(os.Args[1:], &env{stdout: os.Stdout, stderr: os.Stderr, terminal: isTerminal(os.Stderr), ctx: ctx})
	stop()
	os.Exit(status)
}

// run runs volley with args and returns the exit status.
func run(args []string, e *env) (status int) {
	var c cli
	exited := false
	parser, err := kong.New(&c,
		kong.Name("volley"),
		kong.Description("Exact odds and auditable dice for wargame shooting."),
		kong.Writers(e.stdout, e.stderr),
		kong.Exit(func(code int) { exited, status = true, code; panic(exitSignal{}) }),
		kong.UsageOnError(),
		kong.Bind(e),
	)
	if err != nil {
		fmt.Fprintln(e.stderr, "volley:", err)
		return exitUsage
	}
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if _, ok := r.(exitSignal); ok && exited {
			return
		}
		// A panic is a bug in volley, never the user's fault: say so, and exit apart
		// from bad input and bad usage.
		fmt.Fprintf(e.stderr, "volley: internal error: %v\n%s", r, debug.Stack())
		status = exitInternal
	}()
	ctx, err := parser.Parse(args)
	if err != nil {
		fmt.Fprintln(e.stderr, "volley:", err)
		return exitUsage
	}
	if err := ctx.Run(); err != nil {
		return report(e, err)
	}
	return exitOK
}

// exitSignal unwinds out of kong when it asks to exit (after --help).
type exitSignal struct{}

// report prints err for a person and picks the exit status. This is the one place
// where error codes become exit statuses.
func report(e *env, err error) int {
	var ue usageError
	if errors.As(err, &ue) {
		fmt.Fprintln(e.stderr, "volley:", terminalSafe(ue.Error()))
		return exitUsage
	}
	var list scenario.ErrorList
	if errors.As(err, &list) {
		for _, one := range list {
			fmt.Fprintln(e.stderr, terminalSafe(one.Error()))
		}
		return exitInput
	}
	switch volley.ErrorCode(err) {
	case volley.EINTERNAL:
		fmt.Fprintln(e.stderr, "volley: internal error:", terminalSafe(err.Error()))
		return exitInternal
	default:
		fmt.Fprintln(e.stderr, "volley:", terminalSafe(err.Error()))
		return exitInput
	}
}

// terminalSafe escapes the control characters of a message (but the line breaks that lay
// it out), so that nothing in a file name or a value can move a terminal's cursor,
// change its colours or retitle its window. Scenarios may not hold such characters;
// this is the guard for everything else that reaches a terminal.
func terminalSafe(s string) string {
	if !strings.ContainsFunc(s, controlRune) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if controlRune(r) {
			fmt.Fprintf(&b, "\\x%02x", r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// controlRune reports whether r would act on a terminal rather than print: C0 and C1
// controls and DEL, but not a line break or a tab.
func controlRune(r rune) bool {
	return r != '\n' && r != '\t' && (r < 0x20 || r >= 0x7f && r < 0xa0)
}

type rulesetsCmd struct{}

func (rulesetsCmd) Run(e *env) error {
	for _, n := range rules.Names() {
		fmt.Fprintln(e.stdout, n)
	}
	return nil
}

// isTerminal reports whether f is a terminal, where a progress bar makes sense.
func isTerminal(f *os.File) bool { return term.IsTerminal(int(f.Fd())) }
