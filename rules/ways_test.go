package rules_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/volley-wargames/volley/rules"
	_ "github.com/volley-wargames/volley/rules/republique"
	_ "github.com/volley-wargames/volley/rules/warengine"
	"github.com/volley-wargames/volley/scenario"
)

// BenchmarkScriptOdds is `volley odds` over a script, exact over every way the dice of
// the actions before the last fall: Republique's moves.yaml (two d10 fires before the
// last, 100 ways, 35 battles) and the War Engine's (Murphy's aimed shot before Hale's:
// 71,170 ways, 3 battles).
func BenchmarkScriptOdds(b *testing.B) {
	for _, name := range []string{"republique", "warengine"} {
		b.Run(name, func(b *testing.B) {
			doc, err := scenario.ParseFile(filepath.Join("..", "examples", name, "moves.yaml"))
			if err != nil {
				b.Fatal(err)
			}
			ctx := context.Background()
			for b.Loop() {
				_, battle, first, err := rules.Open(doc)
				if err != nil {
					b.Fatal(err)
				}
				s, err := rules.ScriptOf(doc, first)
				if err != nil {
					b.Fatal(err)
				}
				q, err := s.Ask(ctx, battle, s.Len()-1, nil)
				if err != nil {
					b.Fatal(err)
				}
				if _, _, err := q.Odds(ctx); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(q.Ways), "ways")
			}
		})
	}
}
