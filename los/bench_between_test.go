package los

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/volley-wargames/volley/geom"
)

// betweenEye and betweenTarget are two models 25" apart across a diagonal of the table,
// the eye 1.5" up (a trooper's head) and the target a 1"-wide, 1.5"-tall model.
var (
	betweenEye    = Point3{0, 0, 1.5}
	betweenTarget = Silhouette{Base: geom.Circle{C: geom.V(20, 15), R: 0.5}, Height: 1.5}
)

// betweenScene is n pieces of terrain between the two models: footprints of every kind
// randomFootprint makes (convex blocks, walls, ells), 0.3" to 1.2" across and 0.3" to
// 2.5" tall, scattered over the box of the lines of sight, so that some stand on the line
// and hide part of the target and most stand beside it. The same n gives the same scene.
func betweenScene(n int) *Scene {
	r := rand.New(rand.NewPCG(33, uint64(n)))
	s := &Scene{}
	for len(s.Prisms) < n {
		c := geom.V(1+18*r.Float64(), 1+13*r.Float64())
		p := Prism{Footprint: randomFootprint(r, c, 0.3+0.9*r.Float64()), Top: 0.3 + 2.2*r.Float64()}
		if p.Validate() == nil {
			s.Prisms = append(s.Prisms, p)
		}
	}
	return s
}

// lineScene is n pieces of terrain on the line between the two models: as betweenScene's
// but 0.2" to 0.8" across, centred within half an inch of the line from the eye to the
// target's centre and lower than the eye, so that every one stands in the way, each hides
// a part of the target, and the top of the target is seen over the first few and lost
// only behind many.
func lineScene(n int) *Scene {
	r := rand.New(rand.NewPCG(34, uint64(n)))
	s := &Scene{}
	d := betweenTarget.Base.C.Sub(betweenEye.XY())
	side := geom.V(-d.Y, d.X).Norm()
	for len(s.Prisms) < n {
		c := betweenEye.XY().Add(d.Scale(0.1 + 0.8*r.Float64())).Add(side.Scale(r.Float64() - 0.5))
		p := Prism{Footprint: randomFootprint(r, c, 0.2+0.6*r.Float64()), Top: 0.3 + 1.1*r.Float64()}
		if p.Validate() == nil {
			s.Prisms = append(s.Prisms, p)
		}
	}
	return s
}

// BenchmarkSightBetween measures one look across n pieces between the models, scattered
// over the box of the lines of sight (betweenScene) or all on the line (lineScene), exactly
// (exact: a View over prepared occluders, as the rule systems keep them; named: the same
// and then every occluder that hides a part named, as WarStrike always asks and Dropzone
// when nothing is seen) and by the 3 × 4 rays the exact measure replaced
// (VisibleFraction), in the same scenes; the exact fraction seen is reported as "seen",
// the rays' as "rays". prepared is a Prepared scene's Visible, unprepared the Scene's,
// which prepares what it needs on every call.
func BenchmarkSightBetween(b *testing.B) {
	for _, sc := range []struct {
		name  string
		scene func(n int) *Scene
	}{{"scattered", betweenScene}, {"line", lineScene}} {
		for _, n := range []int{0, 8, 64, 200} {
			benchSightBetween(b, sc.name, sc.scene(n), n)
		}
	}
}

// benchSightBetween is BenchmarkSightBetween on one scene.
func benchSightBetween(b *testing.B, family string, s *Scene, n int) {
	occ := s.Occluders()
	var v View
	b.Run(fmt.Sprintf("%s/exact/%d", family, n), func(b *testing.B) {
		for b.Loop() {
			v.Look(betweenEye, betweenTarget)
			v.Hide(occ, nil)
		}
		b.ReportMetric(v.Visibility().Fraction(), "seen")
	})
	b.Run(fmt.Sprintf("%s/named/%d", family, n), func(b *testing.B) {
		for b.Loop() {
			v.Look(betweenEye, betweenTarget)
			v.Hide(occ, nil)
			v.Hiders()
		}
		b.ReportMetric(float64(len(v.Hiders())), "named")
	})
	b.Run(fmt.Sprintf("%s/sampled/%d", family, n), func(b *testing.B) {
		f := 0.0
		for b.Loop() {
			f = s.VisibleFraction(betweenEye, betweenTarget, 3, 4, nil)
		}
		b.ReportMetric(f, "rays")
	})
	prep := s.Prepare()
	b.Run(fmt.Sprintf("%s/prepared/%d", family, n), func(b *testing.B) {
		for b.Loop() {
			prep.Visible(betweenEye, betweenTarget, nil)
		}
	})
	b.Run(fmt.Sprintf("%s/unprepared/%d", family, n), func(b *testing.B) {
		for b.Loop() {
			s.Visible(betweenEye, betweenTarget, nil)
		}
	})
}
