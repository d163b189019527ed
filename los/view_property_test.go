package los

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/volley-wargames/volley/geom"
)

// randomFootprint is a footprint of about the size given around c: a convex polygon, a
// turned rectangle (a wall) or an ell (not convex).
func randomFootprint(r *rand.Rand, c geom.Vec, size float64) geom.Polygon {
	turn := r.Float64() * 2 * math.Pi
	rot := func(x, y float64) geom.Vec {
		s, co := math.Sincos(turn)
		return c.Add(geom.V(x*co-y*s, x*s+y*co))
	}
	switch r.IntN(3) {
	case 0:
		n := 3 + r.IntN(6)
		p := make(geom.Polygon, n)
		for i := range p {
			a := 2 * math.Pi * (float64(i) + 0.6*r.Float64()) / float64(n)
			p[i] = rot(size*math.Cos(a), size*(0.3+0.7*r.Float64())*math.Sin(a))
		}
		return p
	case 1:
		w, d := size*(0.5+r.Float64()), size*0.2*(0.2+r.Float64())
		return geom.Polygon{rot(-w, -d), rot(w, -d), rot(w, d), rot(-w, d)}
	}
	a, b := size*(0.4+0.6*r.Float64()), size*(0.2+0.3*r.Float64())
	return geom.Polygon{rot(-a, -a), rot(a, -a), rot(a, -a+b), rot(-a+b, -a+b), rot(-a+b, a), rot(-a, a)}
}

// randomScene puts an eye, a silhouette and up to four prisms near the line between
// them, some floating, some close to the eye, now and then with the eye straight above
// the silhouette.
func randomScene(r *rand.Rand) (Point3, Silhouette, *Scene) {
	eye := Point3{r.Float64() * 20, r.Float64() * 20, 0.2 + 4*r.Float64()}
	dist := 3 + 22*r.Float64()
	dir := geom.V(math.Cos(r.Float64()*2*math.Pi), math.Sin(r.Float64()*2*math.Pi))
	target := Silhouette{Base: geom.Circle{C: eye.XY().Add(dir.Scale(dist)), R: 0.2 + 0.8*r.Float64()},
		Bottom: 2 * r.Float64() * r.Float64(), Height: 0.5 + 2*r.Float64()}
	if r.IntN(40) == 0 {
		target.Base.C = eye.XY()
		eye.Z = target.Bottom + target.Height + 1 + 3*r.Float64()
	}
	s := &Scene{}
	for range 1 + r.IntN(4) {
		t := r.Float64()
		if r.IntN(6) == 0 {
			t *= 0.1
		}
		side := geom.V(-dir.Y, dir.X).Scale((r.Float64()*2 - 1) * 1.5)
		c := eye.XY().Lerp(target.Base.C, t).Add(side)
		bottom := 0.0
		if r.IntN(4) == 0 {
			bottom = 3 * r.Float64()
		}
		p := Prism{Footprint: randomFootprint(r, c, 0.3+1.5*r.Float64()), Bottom: bottom, Top: bottom + 0.2 + 3*r.Float64()}
		if p.Validate() == nil {
			s.Prisms = append(s.Prisms, p)
		}
	}
	return eye, target, s
}

// samplingError bounds how far a cols × rows sampling of the silhouette can be from the
// exact fraction: a cell's centre can only misjudge the cell when a shadow's edge
// crosses it, and a segment crosses at most 1 + (columns it spans) + (rows it spans)
// cells.
func samplingError(eye Point3, target Silhouette, occ []Occluder, cols, rows int) float64 {
	f := newFrame(eye, target)
	var x shadowScratch
	cells := 0.0
	for i := range occ {
		o := &occ[i]
		if !f.mayHide(o) {
			continue
		}
		for _, fp := range o.pieces {
			s := f.shadow(&x, fp, o.Bottom, o.Top, allPlanes)
			for k := range s {
				p, q := s[k], s[(k+1)%len(s)]
				gx := func(v geom.Vec) float64 { return math.Floor((v.X + f.r) / (2 * f.r) * float64(cols)) }
				gy := func(v geom.Vec) float64 { return math.Floor((v.Y - f.vlo) / (f.vhi - f.vlo) * float64(rows)) }
				cells += 1 + math.Abs(gx(q)-gx(p)) + math.Abs(gy(q)-gy(p))
			}
		}
	}
	return cells / float64(cols*rows)
}

// sceneMix counts random scenes by how much of the target is seen: none, all or part,
// so that a property test can check its scenes cover the whole range.
type sceneMix struct{ hidden, whole, partly int }

// add counts a scene whose target is seen in the fraction seen.
func (m *sceneMix) add(seen float64) {
	switch seen {
	case 0:
		m.hidden++
	case 1:
		m.whole++
	default:
		m.partly++
	}
}

func (m sceneMix) String() string {
	return fmt.Sprintf("%d hidden, %d in sight, %d partly", m.hidden, m.whole, m.partly)
}

// check fails the test unless, of scenes, a twentieth at least are hidden and as many
// in sight, and a quarter partly seen.
func (m sceneMix) check(t *testing.T, scenes int) {
	t.Helper()
	if m.hidden < scenes/20 || m.whole < scenes/20 || m.partly < scenes/4 {
		t.Errorf("the random scenes are not a mix: %s", m)
	}
}

// TestVisibleAgreesWithSampling: on random scenes the exact fraction and a 200 × 200
// sampling of rays (VisibleFraction, the sampled method kept as the oracle) agree within
// the sampling's error, and the scenes cover the whole range from hidden to in sight.
func TestVisibleAgreesWithSampling(t *testing.T) {
	scenes := 4000
	if testing.Short() {
		scenes = 1000
	}
	const n = 200
	r := rand.New(rand.NewPCG(22, 1))
	var v View
	var seen sceneMix
	worst, sumErr := 0.0, 0.0
	for k := range scenes {
		eye, target, s := randomScene(r)
		occ := s.Occluders()
		v.Look(eye, target)
		v.Hide(occ, nil)
		got := v.Visibility().Fraction()
		want := s.VisibleFraction(eye, target, n, n, nil)
		bound := samplingError(eye, target, occ, n, n)
		if d := math.Abs(got - want); d > bound+1e-12 {
			t.Errorf("scene %d: exact %v, sampled %v: %v apart, more than the sampling's %v\neye %v target %v\nprisms %v", k, got, want, d, bound, eye, target, s.Prisms)
		} else {
			worst = max(worst, d)
			sumErr += d
		}
		seen.add(got)
	}
	t.Logf("%d scenes: %s; exact and sampled differ by %.2g at most, %.2g on average",
		scenes, seen, worst, sumErr/float64(scenes))
	seen.check(t, scenes)
}
