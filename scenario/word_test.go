package scenario

import "testing"

type band string

func TestDecodeWord(t *testing.T) {
	for _, tc := range []struct {
		text  string
		words []band
		want  band
		err   string
	}{
		{" long ", []band{"close", "effective", "long"}, "long", ""},
		{"far", []band{"close", "effective", "long"}, "", `want close, effective or long, got "far"`},
		{"far", []band{"close", "long"}, "", `want close or long, got "far"`},
		{"far", []band{"close"}, "", `want close, got "far"`},
		{"Long", []band{"long"}, "", `want long, got "Long"`},
	} {
		var got band
		err := DecodeWord(&got, Scalar{Text: tc.text}, tc.words...)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%q: %v", tc.text, err)
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("%q: error %v, want %s", tc.text, err, tc.err)
		case got != tc.want:
			t.Errorf("%q: got %q, want %q", tc.text, got, tc.want)
		}
	}
}
