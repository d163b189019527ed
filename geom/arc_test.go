package geom

import "testing"

func TestQuadrants(t *testing.T) {
	from := V(10, 10)
	tests := []struct {
		facing  float64
		bearing float64 // of the target from the model
		want    Arc
	}{
		{0, 0, ArcFront},
		{0, 30, ArcFront},
		{0, 45, ArcFront | ArcRight}, // boundary: both
		{0, 45 + 1e-11, ArcFront | ArcRight},
		{0, 45.001, ArcRight},
		{0, 90, ArcRight},
		{0, 135, ArcRight | ArcRear}, // boundary: both
		{0, 180, ArcRear},
		{0, 225, ArcRear | ArcLeft},
		{0, 270, ArcLeft},
		{0, 315, ArcLeft | ArcFront},
		{0, 314.999, ArcLeft},
		{90, 90, ArcFront},
		{90, 180, ArcRight},
		{90, 0, ArcLeft},
		{90, 270, ArcRear},
		{90, 135, ArcFront | ArcRight},
		{90, 45, ArcFront | ArcLeft},
		{350, 0, ArcFront},
		{350, 30, ArcFront},
		{350, 35, ArcFront | ArcRight}, // 45° clockwise of the facing, across north
		{350, 40, ArcRight},
		{350, 305, ArcFront | ArcLeft},
		{350, 170, ArcRear},
		{350, 125, ArcRight | ArcRear},
		{-10, 35, ArcFront | ArcRight}, // same facing written differently
		{710, 35, ArcFront | ArcRight},
	}
	for _, tt := range tests {
		to := polar(from, tt.bearing, 12)
		if got := Quadrants(tt.facing, from, to); got != tt.want {
			t.Errorf("Quadrants(%v, %v, %v) = %v; want %v (bearing %v)", tt.facing, from, to, got, tt.want, tt.bearing)
		}
	}
	if got := Quadrants(123, from, from); got != ArcAll {
		t.Errorf("Quadrants(123, %v, %v) = %v; want %v", from, from, got, ArcAll)
	}
}

func TestArcContains(t *testing.T) {
	from := V(0, 0)
	tests := []struct {
		arc    Arc
		facing float64
		to     Vec
		want   bool
	}{
		{ArcFront, 0, V(0, 5), true},
		{ArcFront, 0, V(5, 0), false},
		{ArcSide, 0, V(5, 0), true},
		{ArcSide, 0, V(-5, 0), true},
		{ArcSide, 0, V(0, -5), false},
		{ArcRight, 0, V(5, 5), true}, // on the front/right boundary
		{ArcRear, 180, V(0, 5), true},
		{ArcAll, 0, V(3, -7), true},
		{0, 0, V(0, 5), false},
		{ArcFront, 0, from, true},
	}
	for _, tt := range tests {
		if got := tt.arc.Contains(tt.facing, from, tt.to); got != tt.want {
			t.Errorf("%v.Contains(%v, %v, %v) = %v; want %v", tt.arc, tt.facing, from, tt.to, got, tt.want)
		}
	}
}

func TestArcString(t *testing.T) {
	tests := []struct {
		a    Arc
		want string
	}{
		{0, "none"},
		{ArcFront, "F"},
		{ArcLeft, "SL"},
		{ArcRight, "SR"},
		{ArcSide, "S"},
		{ArcRear, "R"},
		{ArcFront | ArcRight, "F/SR"},
		{ArcFront | ArcSide, "F/S"},
		{ArcLeft | ArcRear, "SL/R"},
		{ArcFront | ArcRear, "F/R"},
		{ArcAll, "F/S/R"},
		{1 << 5, "Arc(32)"},
	}
	for _, tt := range tests {
		if got := tt.a.String(); got != tt.want {
			t.Errorf("Arc(%d).String() = %q; want %q", uint8(tt.a), got, tt.want)
		}
	}
}

func TestInSector(t *testing.T) {
	from := V(1, 1)
	tests := []struct {
		facing, half, bearing float64
		want                  bool
	}{
		{0, 30, 0, true},
		{0, 30, 30, true}, // edge is inclusive
		{0, 30, 330, true},
		{0, 30, 30.001, false},
		{0, 30, 180, false},
		{350, 30, 15, true},
		{350, 30, 21, false},
		{270, 90, 0, true},
		{270, 90, 90, false},
		{0, 180, 180, true},
		{0, 0, 0, true},
		{0, 0, 1, false},
	}
	for _, tt := range tests {
		to := polar(from, tt.bearing, 7)
		if got := InSector(tt.facing, tt.half, from, to); got != tt.want {
			t.Errorf("InSector(%v, %v, %v, %v) = %v; want %v (bearing %v)", tt.facing, tt.half, from, to, got, tt.want, tt.bearing)
		}
	}
	if got := InSector(0, 10, from, from); !got {
		t.Errorf("InSector(0, 10, %v, %v) = false; want true", from, from)
	}
}

func BenchmarkQuadrants(b *testing.B) {
	from, to := V(10, 10), V(22, 17)
	for b.Loop() {
		Quadrants(350, from, to)
	}
}
