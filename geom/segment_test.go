package geom

import (
	"math"
	"testing"
)

func TestSegmentIntersect(t *testing.T) {
	tests := []struct {
		name   string
		s, o   Segment
		wantT  float64
		wantOK bool
	}{
		{"cross", Segment{V(0, 0), V(4, 0)}, Segment{V(1, -1), V(1, 1)}, 0.25, true},
		{"T junction", Segment{V(0, 0), V(4, 0)}, Segment{V(3, 0), V(3, 2)}, 0.75, true},
		{"end on end", Segment{V(0, 0), V(4, 0)}, Segment{V(4, 0), V(5, 5)}, 1, true},
		{"start on other", Segment{V(2, 0), V(2, 4)}, Segment{V(0, 0), V(4, 0)}, 0, true},
		{"miss short", Segment{V(0, 0), V(4, 0)}, Segment{V(5, -1), V(5, 1)}, 0, false},
		{"miss other short", Segment{V(0, 0), V(4, 0)}, Segment{V(1, 1), V(1, 3)}, 0, false},
		{"parallel", Segment{V(0, 0), V(4, 0)}, Segment{V(0, 1), V(4, 1)}, 0, false},
		{"collinear overlap", Segment{V(0, 0), V(4, 0)}, Segment{V(6, 0), V(1, 0)}, 0.25, true},
		{"collinear overlap reversed s", Segment{V(4, 0), V(0, 0)}, Segment{V(1, 0), V(2, 0)}, 0.5, true},
		{"collinear containing s", Segment{V(1, 0), V(2, 0)}, Segment{V(0, 0), V(4, 0)}, 0, true},
		{"collinear touching", Segment{V(0, 0), V(4, 0)}, Segment{V(4, 0), V(8, 0)}, 1, true},
		{"collinear apart", Segment{V(0, 0), V(4, 0)}, Segment{V(5, 0), V(8, 0)}, 0, false},
		{"s is a point on o", Segment{V(1, 1), V(1, 1)}, Segment{V(0, 0), V(2, 2)}, 0, true},
		{"o is a point on s", Segment{V(0, 0), V(4, 0)}, Segment{V(3, 0), V(3, 0)}, 0.75, true},
		{"o is a point off s", Segment{V(0, 0), V(4, 0)}, Segment{V(3, 1), V(3, 1)}, 0, false},
	}
	for _, tt := range tests {
		gotT, gotOK := tt.s.Intersect(tt.o)
		if gotOK != tt.wantOK || (gotOK && math.Abs(gotT-tt.wantT) > 1e-12) {
			t.Errorf("%s: %v.Intersect(%v) = %v, %v; want %v, %v", tt.name, tt.s, tt.o, gotT, gotOK, tt.wantT, tt.wantOK)
		}
	}
}

func TestSegmentDistTo(t *testing.T) {
	s := Segment{V(0, 0), V(4, 0)}
	tests := []struct {
		p    Vec
		want float64
	}{
		{V(2, 3), 3},
		{V(-3, 4), 5}, // nearest to A
		{V(7, -4), 5}, // nearest to B
		{V(1, 0), 0},
	}
	for _, tt := range tests {
		if got := s.DistTo(tt.p); got != tt.want {
			t.Errorf("%v.DistTo(%v) = %v; want %v", s, tt.p, got, tt.want)
		}
	}
	if got := (Segment{V(1, 1), V(1, 1)}).DistTo(V(4, 5)); got != 5 {
		t.Errorf("point segment DistTo = %v; want 5", got)
	}
	if got, want := s.Len(), 4.0; got != want {
		t.Errorf("%v.Len() = %v; want %v", s, got, want)
	}
	if got, want := s.At(0.25), V(1, 0); got != want {
		t.Errorf("%v.At(0.25) = %v; want %v", s, got, want)
	}
}
