package geom

import "testing"

func TestCircle(t *testing.T) {
	tests := []struct {
		a, b  Circle
		edge  float64
		exact bool // Touches with tol 0
		loose bool // Touches with tol 0.5
	}{
		{Circle{V(0, 0), 1}, Circle{V(5, 0), 1}, 3, false, false},
		{Circle{V(0, 0), 1}, Circle{V(3, 4), 1.5}, 2.5, false, false},
		{Circle{V(0, 0), 1}, Circle{V(2.25, 0), 1}, 0.25, false, true},
		{Circle{V(0, 0), 1}, Circle{V(2, 0), 1}, 0, true, true},   // exactly in contact
		{Circle{V(0, 0), 1}, Circle{V(1, 0), 1}, 0, true, true},   // overlapping
		{Circle{V(0, 0), 0}, Circle{V(0, 3), 0}, 3, false, false}, // points
	}
	for _, tt := range tests {
		if got := EdgeDistance(tt.a, tt.b); got != tt.edge {
			t.Errorf("EdgeDistance(%v, %v) = %v; want %v", tt.a, tt.b, got, tt.edge)
		}
		if got := tt.a.Touches(tt.b, 0); got != tt.exact {
			t.Errorf("%v.Touches(%v, 0) = %v; want %v", tt.a, tt.b, got, tt.exact)
		}
		if got := tt.a.Touches(tt.b, 0.5); got != tt.loose {
			t.Errorf("%v.Touches(%v, 0.5) = %v; want %v", tt.a, tt.b, got, tt.loose)
		}
	}
}
