package geom

import (
	"math"
	"testing"
)

// polar returns the point dist away from from along compass bearing deg.
func polar(from Vec, deg, dist float64) Vec {
	s, c := math.Sincos(deg * math.Pi / 180)
	return from.Add(V(s, c).Scale(dist))
}

func TestVecArithmetic(t *testing.T) {
	a, b := V(3, 4), V(1, -2)
	tests := []struct {
		name      string
		got, want Vec
	}{
		{"Add", a.Add(b), V(4, 2)},
		{"Sub", a.Sub(b), V(2, 6)},
		{"Scale", a.Scale(-2), V(-6, -8)},
		{"Norm", a.Norm(), V(0.6, 0.8)},
		{"Norm zero", Vec{}.Norm(), Vec{}},
		{"Lerp 0", a.Lerp(b, 0), a},
		{"Lerp 1", a.Lerp(b, 1), b},
		{"Lerp half", a.Lerp(b, 0.5), V(2, 1)},
		{"Lerp beyond", a.Lerp(b, 2), V(-1, -8)},
	}
	for _, tt := range tests {
		if !tt.got.Eq(tt.want, 1e-15) {
			t.Errorf("%s = %v; want %v", tt.name, tt.got, tt.want)
		}
	}
	scalars := []struct {
		name      string
		got, want float64
	}{
		{"Dot", a.Dot(b), -5},
		{"Cross", a.Cross(b), -10},
		{"Cross anticlockwise", V(1, 0).Cross(V(0, 1)), 1},
		{"Len", a.Len(), 5},
		{"Dist", a.Dist(b), math.Sqrt(40)},
	}
	for _, tt := range scalars {
		if tt.got != tt.want {
			t.Errorf("%s = %v; want %v", tt.name, tt.got, tt.want)
		}
	}
}

func TestVecEq(t *testing.T) {
	tests := []struct {
		a, b Vec
		eps  float64
		want bool
	}{
		{V(1, 1), V(1, 1), 0, true},
		{V(1, 1), V(1, 1.5), 0.5, true},
		{V(0, 0), V(0.3, 0.4), 0.5, true},
		{V(0, 0), V(0.3, 0.4), 0.49, false},
	}
	for _, tt := range tests {
		if got := tt.a.Eq(tt.b, tt.eps); got != tt.want {
			t.Errorf("%v.Eq(%v, %v) = %v; want %v", tt.a, tt.b, tt.eps, got, tt.want)
		}
	}
}

func TestBearing(t *testing.T) {
	o := V(2, 3)
	tests := []struct {
		to   Vec
		want float64
	}{
		{o.Add(V(0, 5)), 0},    // north
		{o.Add(V(5, 5)), 45},   // north-east
		{o.Add(V(5, 0)), 90},   // east
		{o.Add(V(1, -1)), 135}, // south-east
		{o.Add(V(0, -5)), 180}, // south
		{o.Add(V(-5, 0)), 270}, // west
		{o.Add(V(-1, 1)), 315}, // north-west
		{o, 0},                 // same point
	}
	for _, tt := range tests {
		if got := Bearing(o, tt.to); got != tt.want {
			t.Errorf("Bearing(%v, %v) = %v; want %v", o, tt.to, got, tt.want)
		}
	}
}

func TestNormDeg(t *testing.T) {
	tests := []struct{ in, want float64 }{
		{0, 0},
		{math.Copysign(0, -1), 0},
		{90, 90},
		{360, 0},
		{-90, 270},
		{720.5, 0.5},
		{-360, 0},
		{-1e-20, 0}, // rounds to 360, which is north
		{359.5, 359.5},
	}
	for _, tt := range tests {
		got := NormDeg(tt.in)
		if got != tt.want || math.Signbit(got) {
			t.Errorf("NormDeg(%v) = %v; want %v", tt.in, got, tt.want)
		}
	}
	if got := NormDeg(math.NaN()); !math.IsNaN(got) {
		t.Errorf("NormDeg(NaN) = %v; want NaN", got)
	}
}

func TestAngleDiff(t *testing.T) {
	tests := []struct{ a, b, want float64 }{
		{0, 90, 90},
		{90, 0, -90},
		{350, 10, 20},
		{10, 350, -20},
		{0, 180, 180},
		{180, 0, 180}, // opposite is always +180, never -180
		{90, -90, 180},
		{45, 45, 0},
		{-720, 30, 30},
	}
	for _, tt := range tests {
		if got := AngleDiff(tt.a, tt.b); got != tt.want {
			t.Errorf("AngleDiff(%v, %v) = %v; want %v", tt.a, tt.b, got, tt.want)
		}
	}
}
