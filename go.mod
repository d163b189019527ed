module github.com/volley-wargames/volley

go 1.26

// Every direct dependency, and why (see docs/architecture.md):
require (
	// CLI parsing for cmd/volley: subcommands, typed flags, help, from struct tags.
	github.com/alecthomas/kong v1.17.0
	// YAML and JSON parsing with line:col on every node; scenario/ walks its AST with a
	// strict decoder of its own so that all errors of a file are reported together.
	github.com/goccy/go-yaml v1.19.2
	// The progress bar of `volley sim` on a terminal, refreshed from a ticker.
	github.com/schollz/progressbar/v3 v3.19.1
	// Telling a terminal from a pipe (no progress bar when piped); already needed by progressbar.
	golang.org/x/term v0.44.0
	// PNG and SVG charts for `volley odds --plot`.
	gonum.org/v1/plot v0.17.0
)

require (
	codeberg.org/go-fonts/liberation v0.5.0 // indirect
	codeberg.org/go-latex/latex v0.2.0 // indirect
	codeberg.org/go-pdf/fpdf v0.11.1 // indirect
	git.sr.ht/~sbinet/gg v0.7.0 // indirect
	github.com/ajstarks/svgo v0.0.0-20211024235047-1546f124cd8b // indirect
	github.com/golang/freetype v0.0.0-20170609003504-e2365dfdc4a0 // indirect
	github.com/mitchellh/colorstring v0.0.0-20190213212951-d06e56a500db // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	golang.org/x/image v0.30.0 // indirect
	golang.org/x/sys v0.46.0 // indirect
	golang.org/x/text v0.28.0 // indirect
)
