module github.com/volley-wargames/volley

go 1.26.0

// Every direct dependency, and why (see docs/architecture.md):
require (
	// CLI parsing for cmd/volley: subcommands, typed flags, help, from struct tags.
	github.com/alecthomas/kong v1.17.0
	// The page's tests (http/browser_test.go) drive a real headless chromium over the
	// DevTools protocol: chromedp, and cdproto for its events (uncaught exceptions).
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	// YAML and JSON parsing with line:col on every node; scenario/ walks its AST with a
	// strict decoder of its own so that all errors of a file are reported together.
	github.com/goccy/go-yaml v1.19.2
	// The PostgreSQL store (postgres/), for several servers sharing one database.
	github.com/jackc/pgx/v5 v5.12.0
	// Names that look alike (Cyrillic "а" for Latin "a", "rn" for "m"): Unicode's table of
	// confusable characters (UTS #39 skeletons), generated from its data file, rather than
	// a table of our own (scenario/names.go).
	github.com/mtibben/confusables v0.0.0-20210201002637-9d1b0723b659
	// The tests check every example scenario against the JSON Schemas `volley schema`
	// prints, with a kept validator of draft 2020-12 rather than one of our own (tests
	// only: the binary serves the schemas and never validates against them).
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3
	// The progress bar of `volley sim` on a terminal, refreshed from a ticker.
	github.com/schollz/progressbar/v3 v3.19.1
	// A bound on the connections `volley serve` holds open (netutil.LimitListener); from the
	// Go team.
	golang.org/x/net v0.62.0
	// The server's locks and work queues that give up at a request's deadline
	// (semaphore.Weighted's Acquire takes a context); from the Go team, already needed
	// by pgx.
	golang.org/x/sync v0.24.0
	// Telling a terminal from a pipe (no progress bar when piped); already needed by progressbar.
	golang.org/x/term v0.47.0
	// Each client's token buckets (rate.Limiter) in http/admission.go; from the Go team.
	golang.org/x/time v0.16.0
	// The chance that fair dice spread as unevenly as a player's hand-rolled dice did
	// (distuv.ChiSquared's survival function, for the chi-square test of dice/fair.go):
	// the regularized incomplete gamma function from a kept numeric library, already
	// brought in by plot, rather than one of our own.
	gonum.org/v1/gonum v0.16.0
	// PNG and SVG charts for `volley odds --plot`.
	gonum.org/v1/plot v0.17.0
	// The default store (sqlite/): SQLite in pure Go, so the binary needs no C toolchain.
	modernc.org/sqlite v1.61.1
)

require (
	codeberg.org/go-fonts/liberation v0.5.0 // indirect
	codeberg.org/go-latex/latex v0.2.0 // indirect
	codeberg.org/go-pdf/fpdf v0.11.1 // indirect
	git.sr.ht/~sbinet/gg v0.7.0 // indirect
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b // indirect
	github.com/dustin/go-humanize v1.1.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	github.com/google/uuid v1.6.0 // indirect
	github.com/jackc/pgpassfile v1.0.0 // indirect
	github.com/jackc/pgservicefile v0.0.0-20240606120523-5a60cdf6a761 // indirect
	github.com/jackc/puddle/v2 v2.2.3 // indirect
	github.com/mattn/go-isatty v0.0.24 // indirect
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/ncruces/go-strftime v1.1.0 // indirect
	github.com/remyoudompheng/bigfft v0.0.0-20230129092748-24d4a6f8daec // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	golang.org/x/image v0.30.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
	modernc.org/libc v1.79.0 // indirect
	modernc.org/mathutil v1.7.1 // indirect
	modernc.org/memory v1.12.1 // indirect
)
