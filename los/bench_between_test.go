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

// BenchmarkSightBetween measures one look across n pieces between the models, exactly
// (a View over prepared occluders, as the rule systems keep them, naming what hides the
// target as they ask) and by the 3 × 4 rays the exact measure replaced
// (VisibleFraction), in the same scenes; the exact fraction seen is reported as "seen",
// the rays' as "rays". prepared is a Prepared scene's Visible, unprepared the Scene's,
// which prepares what it needs on every call.
func BenchmarkSightBetween(b *testing.B) {
	for _, n := range []int{0, 8, 64, 200} {
		s := betweenScene(n)
		occ := s.Occluders()
		var v View
		b.Run(fmt.Sprintf("exact/%d", n), func(b *testing.B) {
			for b.Loop() {
				v.Look(betweenEye, betweenTarget)
				v.Hide(occ, nil)
				v.Hiders()
			}
			b.ReportMetric(v.Visibility().Fraction(), "seen")
		})
		b.Run(fmt.Sprintf("sampled/%d", n), func(b *testing.B) {
			f := 0.0
			for b.Loop() {
				f = s.VisibleFraction(betweenEye, betweenTarget, 3, 4, nil)
			}
			b.ReportMetric(f, "rays")
		})
		prep := s.Prepare()
		b.Run(fmt.Sprintf("prepared/%d", n), func(b *testing.B) {
			for b.Loop() {
				prep.Visible(betweenEye, betweenTarget, nil)
			}
		})
		b.Run(fmt.Sprintf("unprepared/%d", n), func(b *testing.B) {
			for b.Loop() {
				s.Visible(betweenEye, betweenTarget, nil)
			}
		})
	}
}
