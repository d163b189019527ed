package scenario

import "testing"

func TestNearest(t *testing.T) {
	names := []string{"name", "range", "shots", "ap", "x", "y"}
	for _, tc := range []struct{ key, want string }{
		{"rnage", "range"},
		{"Shots", "shots"},
		{"shot", "shots"},
		{"shotss", "shots"},
		{"nmae", "name"},
		{"z", ""}, // one letter off, but from a one-letter key a guess means nothing
		{"ab", "ap"},
		{"zz", ""}, // two edits from "x" rewrites the whole key
		{"armour", ""},
		{"", ""},
	} {
		if got := nearest(tc.key, names); got != tc.want {
			t.Errorf("nearest(%q) = %q; want %q", tc.key, got, tc.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"range", "range", 0},
		{"rnage", "range", 1}, {"kitten", "sitting", 3}, {"ca", "abc", 3}, {"é", "e", 1},
	} {
		if got := editDistance([]rune(tc.a), []rune(tc.b)); got != tc.want {
			t.Errorf("editDistance(%q, %q) = %d; want %d", tc.a, tc.b, got, tc.want)
		}
	}
}
