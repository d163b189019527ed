package los

import (
	"math"
	"testing"

	"github.com/volley-wargames/volley/geom"
)

// TestNearDegenerateScenes are scenes where rounding once turned a shadow inside out (a
// corner of it 1e-16 from another, and the line through the two pointing anywhere), so
// that the exact measure saw up to 70% more of the silhouette than there is, or saw a
// model that is wholly hidden. Each is the eye within 3" of the target and a piece of
// terrain standing on the target's ground and crossing its plane. want is what a
// sampling of 4,000 × 4,000 rays sees (1,000 × 1,000 for the first, issue 33's smallest
// case, whose 0.6099 a ray sampler built apart from volley gave too), to within
// its error.
func TestNearDegenerateScenes(t *testing.T) {
	tests := []struct {
		name   string
		eye    Point3
		target Silhouette
		prisms []Prism
		was    float64 // what the exact measure said before
		want   float64 // what rays see
		within float64
	}{
		{
			name:   "issue 33's smallest case: one convex piece",
			eye:    Point3{14.412746129466282, 26.913047151800214, 4.968652264232601},
			target: Silhouette{Base: geom.Circle{C: geom.V(14.002532945236352, 27.07170353464174), R: 1.5453974698280615}, Height: 4.723181393156743},
			prisms: []Prism{{Footprint: geom.Polygon{geom.V(16.051311961713004, 26.05496273454157), geom.V(12.250908880281285, 27.280282926622995),
				geom.V(12.094554409300502, 26.795340282936024), geom.V(15.41001484704525, 25.72637456183538)}, Top: 5.300145591752698}},
			was: 0.7054, want: 0.6099, within: 1e-3,
		},
		{
			name:   "wholly hidden behind a wall across the plane, seen 49% before",
			eye:    Point3{19.947918543394525, 28.21605564875065, 0.05},
			target: Silhouette{Base: geom.Circle{C: geom.V(19.858491237353437, 28.14919332292988), R: 1.3154089154316477}, Height: 4.184417255072254},
			prisms: []Prism{
				{Footprint: geom.Polygon{geom.V(19.65691539973886, 29.544441047524412), geom.V(18.087208599847912, 29.297101257840325), geom.V(18.22252657732833, 28.438324957958287),
					geom.V(18.933457077337238, 28.550346770161955), geom.V(19.04547888954091, 27.839416270153045), geom.V(19.904255189422948, 27.974734247633464)}, Top: 2.609996297583783},
				{Footprint: geom.Polygon{geom.V(21.179874529739607, 29.489755812600972), geom.V(20.794336685163444, 29.995454083124702), geom.V(20.17828988597616, 30.378574454748303),
					geom.V(19.20292406617943, 30.132461662646584), geom.V(18.937475786005404, 29.909241417804243), geom.V(19.095831144454774, 29.22169801219805),
					geom.V(20.17905004060662, 28.657622405853907), geom.V(20.8727094533651, 28.816901656789938)}, Top: 0.8223780802828918},
				{Footprint: geom.Polygon{geom.V(19.91310528153393, 28.328407297254063), geom.V(20.412246214853464, 28.624596775735114), geom.V(20.319159624502703, 28.781467059667857),
					geom.V(19.97688897511591, 28.57836417153757), geom.V(19.77378608698562, 28.92063482092436), geom.V(19.61691580305288, 28.827548230573598)}, Top: 3.4332485394518812},
				{Footprint: geom.Polygon{geom.V(24.194267132120196, 25.8260345005648), geom.V(18.28076920823149, 29.072821193608508),
					geom.V(17.94341632056812, 28.458387358121445), geom.V(23.856914244456824, 25.211600665077736)}, Top: 5.8610533799510565},
			},
			was: 0.4863, want: 0, within: 0,
		},
		{
			name:   "wholly hidden, eye 4\" up and 1.5\" away, seen 21% before",
			eye:    Point3{9.97533475806312, 22.975562923376543, 3.7317577684280874},
			target: Silhouette{Base: geom.Circle{C: geom.V(8.618744551309872, 22.396758658407457), R: 1.3032551971217092}, Height: 4.83880276282473},
			prisms: []Prism{
				{Footprint: geom.Polygon{geom.V(10.948421789106511, 22.577907105510548), geom.V(7.576386323677409, 23.743951356801976), geom.V(7.1950304908235, 22.64112409110652),
					geom.V(9.464238690557146, 21.856435672668997), geom.V(8.679550272119625, 19.587227472935353), geom.V(9.782377537815083, 19.205871640081444)}, Top: 4.7185559615355865},
				{Footprint: geom.Polygon{geom.V(7.63462493613129, 20.066829458290304), geom.V(8.473171961592293, 20.31069245620063), geom.V(10.337523119028866, 20.030409177772817),
					geom.V(9.79571898218343, 21.136852398943248), geom.V(8.55817090546282, 22.115030404039917)}, Top: 1.8707341359819962},
				{Footprint: geom.Polygon{geom.V(8.3219880106859, 23.306218375482114), geom.V(8.485523605206362, 23.49692193339537), geom.V(8.671459392636786, 23.64909050892283),
					geom.V(8.53597311185263, 23.99529556635695), geom.V(8.395557695999374, 24.077592837593773), geom.V(8.131808044781975, 23.99750042439861),
					geom.V(7.936973702490297, 23.788297895752553), geom.V(8.079123754973635, 23.427973115152458)}, Top: 7.445151211518281},
				{Footprint: geom.Polygon{geom.V(9.701958742233634, 21.429331186781468), geom.V(7.165457843112181, 24.977185577313207),
					geom.V(6.5600631909430716, 24.54436508624449), geom.V(9.096564090064524, 20.99651069571275)}, Top: 3.4132766511431076},
			},
			was: 0.2051, want: 0, within: 0,
		},
	}
	for _, tt := range tests {
		s := &Scene{Prisms: tt.prisms}
		v := s.Visible(tt.eye, tt.target, nil)
		got := v.Fraction()
		if math.Abs(got-tt.want) > tt.within {
			t.Errorf("%s: %v of it seen; rays see %v (it was %v before sight was robust)", tt.name, got, tt.want, tt.was)
		}
		if v.Seen() != (tt.want > 0) {
			t.Errorf("%s: Seen() = %v; rays see %v of it", tt.name, v.Seen(), tt.want)
		}
		// The prepared scene and a View with Hiders give the same answer.
		if p := s.Prepare().Visible(tt.eye, tt.target, nil).Fraction(); p != got {
			t.Errorf("%s: the prepared scene sees %v, the scene %v", tt.name, p, got)
		}
		var w View
		w.Look(tt.eye, tt.target)
		w.Hide(s.Occluders(), nil)
		if f := w.Visibility().Fraction(); math.Abs(f-got) > 1e-12 {
			t.Errorf("%s: a View sees %v, the scene %v", tt.name, f, got)
		}
		if tt.want == 0 && len(w.Hiders()) == 0 {
			t.Errorf("%s: hidden, but no prism is named", tt.name)
		}
	}
}
