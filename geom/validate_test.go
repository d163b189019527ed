package geom

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// validQuadratic reports whether the O(n²) Validate volley had before the sweep
// accepts p (bar the vertex cap, which it did not have).
func validQuadratic(p Polygon) bool { return validateQuadratic(p) == nil }

// validateQuadratic is Validate as it was before the sweep: every pair of edges.
func validateQuadratic(p Polygon) error {
	n := len(p)
	if n < 3 {
		return fmt.Errorf("geom: polygon has %d vertices; need at least 3", n)
	}
	if err := p.vertexError(); err != nil {
		return err
	}
	for i := range n {
		ei := p.edge(i)
		for j := i + 1; j < n; j++ {
			ej := p.edge(j)
			if j == i+1 || (i == 0 && j == n-1) {
				// Neighbours share a vertex, so they always touch; they are
				// only wrong if the second doubles back along the first.
				a, b := ei, ej
				if i == 0 && j == n-1 {
					a, b = ej, ei
				}
				d1, d2 := a.B.Sub(a.A), b.B.Sub(b.A)
				if d1.Cross(d2) == 0 && d1.Dot(d2) < 0 {
					return fmt.Errorf("geom: polygon edges %d and %d fold back on each other", i, j)
				}
				continue
			}
			if _, ok := ei.Intersect(ej); ok {
				return fmt.Errorf("geom: polygon edges %d and %d cross", i, j)
			}
		}
	}
	return p.areaError()
}

// crossesQuadratic is the crossing check Validate made before its sweep: every pair of
// edges that are not neighbours. It is the reference the sweep must agree with.
func crossesQuadratic(p Polygon) bool {
	n := len(p)
	for i := range n {
		for j := i + 1; j < n; j++ {
			if neighbours(i, j, n) {
				continue
			}
			if _, ok := p.edge(i).Intersect(p.edge(j)); ok {
				return true
			}
		}
	}
	return false
}

// randomPolygon makes polygons of every kind the sweep must handle: simple stars,
// self-crossing scribbles, points on a coarse lattice (so that many share an x, a y, a
// line or a vertex), axis-aligned spirals and combs.
func randomPolygon(r *rand.Rand) Polygon {
	n := 3 + r.IntN(40)
	p := make(Polygon, n)
	switch r.IntN(4) {
	case 0: // a star around the origin: simple
		for i := range p {
			a := 2 * math.Pi * (float64(i) + 0.8*r.Float64()) / float64(n)
			d := 1 + 9*r.Float64()
			p[i] = V(d*math.Cos(a), d*math.Sin(a))
		}
	case 1: // anywhere: mostly crossing
		for i := range p {
			p[i] = V(10*r.Float64(), 10*r.Float64())
		}
	case 2: // a lattice: shared coordinates, collinear edges, touching vertices
		for i := range p {
			p[i] = V(float64(r.IntN(5)), float64(r.IntN(5)))
		}
	default: // a rectilinear walk: vertical edges, edges on one line
		x, y := 0.0, 0.0
		for i := range p {
			if i%2 == 0 {
				x += float64(r.IntN(7) - 3)
			} else {
				y += float64(r.IntN(7) - 3)
			}
			p[i] = V(x, y)
		}
	}
	return p
}

// TestSweepAgrees compares the sweep with every pair of edges on many polygons. Only
// polygons whose non-neighbouring edges either meet or stay clearly apart are counted:
// edges that come within Tolerance without touching are the one case the sweep may
// leave to the pairs next to each other (see Validate).
func TestSweepAgrees(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	invalid, valid := 0, 0
	for range 20000 {
		p := randomPolygon(r)
		if nearMiss(p) {
			continue
		}
		want := validQuadratic(p)
		err := p.Validate()
		if (err == nil) != want {
			t.Fatalf("Validate = %v, every pair says valid %v: %v", err, want, p)
		}
		if !want {
			invalid++
		} else {
			valid++
		}
	}
	t.Logf("%d invalid and %d valid polygons agree", invalid, valid)
	if invalid < 1000 || valid < 1000 {
		t.Errorf("too few of a kind: %d invalid, %d valid", invalid, valid)
	}
}

// nearMiss reports whether two edges that are not neighbours come within 10 × Tolerance
// of each other without meeting.
func nearMiss(p Polygon) bool {
	n := len(p)
	for i := range n {
		for j := i + 1; j < n; j++ {
			if neighbours(i, j, n) {
				continue
			}
			a, b := p.edge(i), p.edge(j)
			if _, ok := a.Intersect(b); ok {
				continue
			}
			d := min(a.DistTo(b.A), a.DistTo(b.B), b.DistTo(a.A), b.DistTo(a.B))
			if d < 10*Tolerance {
				return true
			}
		}
	}
	return false
}

// comb is a valid polygon of about n vertices: teeth standing on a spine.
func comb(n int) Polygon {
	teeth := (n - 2) / 4
	var p Polygon
	for i := range teeth {
		x := float64(2 * i)
		p = append(p, V(x, 1), V(x, 5), V(x+1, 5), V(x+1, 1))
	}
	return append(p, V(float64(2*teeth), 0), V(0, 0))
}

func TestValidateLarge(t *testing.T) {
	star := func(n int) Polygon {
		p := make(Polygon, n)
		for i := range p {
			a := 2 * math.Pi * float64(i) / float64(n)
			d := 5 + float64(i%2)
			p[i] = V(d*math.Cos(a), d*math.Sin(a))
		}
		return p
	}
	crossed := comb(MaxVertices)
	// The last tooth leans over onto the one before it.
	last := len(crossed) - 5
	crossed[last] = V(crossed[last].X-1.5, crossed[last].Y)
	for _, tc := range []struct {
		name string
		p    Polygon
		want string
	}{
		{"a star at the cap", star(MaxVertices), ""},
		{"a star over the cap", star(MaxVertices + 1), fmt.Sprintf("polygon has %d vertices; at most %d", MaxVertices+1, MaxVertices)},
		{"a comb at the cap", comb(MaxVertices), ""},
		{"a comb crossed at its far end", crossed, "cross"},
		{"40,000 vertices", star(40000), "at most 1024"},
	} {
		err := tc.p.Validate()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: %v; want an error containing %q", tc.name, err, tc.want)
		}
	}
}

func BenchmarkValidate(b *testing.B) {
	for _, n := range []int{16, 256, MaxVertices} {
		p := comb(n)
		b.Run(fmt.Sprintf("sweep/%d", len(p)), func(b *testing.B) {
			for b.Loop() {
				if err := p.Validate(); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("every-pair/%d", len(p)), func(b *testing.B) {
			for b.Loop() {
				crossesQuadratic(p)
			}
		})
	}
}

// FuzzValidate: Validate never panics, and agrees with every pair of edges on polygons
// without near misses.
func FuzzValidate(f *testing.F) {
	f.Add([]byte{0, 0, 10, 0, 10, 10, 0, 10})
	f.Add([]byte{0, 0, 10, 10, 10, 0, 0, 10})
	f.Fuzz(func(t *testing.T, raw []byte) {
		var p Polygon
		for i := 0; i+1 < len(raw) && len(p) < 64; i += 2 {
			p = append(p, V(float64(raw[i]%16), float64(raw[i+1]%16)))
		}
		err := p.Validate()
		if len(p) < 3 || nearMiss(p) {
			return
		}
		if (err == nil) != validQuadratic(p) {
			t.Fatalf("sweep and every pair disagree on %v (Validate: %v)", p, err)
		}
	})
}
