package scenario

import (
	"errors"
	"testing"
)

func TestPosString(t *testing.T) {
	for _, tc := range []struct {
		pos  Pos
		want string
	}{
		{Pos{"a.yaml", 3, 7}, "a.yaml:3:7"},
		{Pos{"", 3, 7}, "3:7"},
		{Pos{}, "-"},
		{Pos{"a.yaml", 0, 0}, "-"},
	} {
		if got := tc.pos.String(); got != tc.want {
			t.Errorf("%#v.String() = %q; want %q", tc.pos, got, tc.want)
		}
		if got, want := tc.pos.IsValid(), tc.pos.Line > 0; got != want {
			t.Errorf("%#v.IsValid() = %v; want %v", tc.pos, got, want)
		}
	}
}

func TestErrorString(t *testing.T) {
	for _, tc := range []struct {
		err  *Error
		want string
	}{
		{&Error{Pos{"a.yaml", 3, 7}, "shots: want a whole number"}, "a.yaml:3:7: shots: want a whole number"},
		{&Error{Pos{"", 3, 7}, "m"}, "3:7: m"},
		{&Error{Pos{"a.yaml", 0, 0}, "m"}, "a.yaml: m"},
		{&Error{Pos{}, "m"}, "m"},
	} {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("%#v.Error() = %q; want %q", tc.err, got, tc.want)
		}
	}
}

func TestErrorList(t *testing.T) {
	var l ErrorList
	if l.Err() != nil {
		t.Errorf("empty ErrorList.Err() = %v; want nil", l.Err())
	}
	l.Add(Pos{"b", 1, 1}, "late file")
	l.Add(Pos{"a", 2, 1}, "second line")
	l.Add(Pos{"a", 1, 5}, "z message")
	l.Add(Pos{"a", 1, 5}, "a %s", "message")
	l.Add(Pos{"a", 1, 2}, "early column")
	l.Add(Pos{"a", 1, 5}, "z message")
	if l.Len() != 6 {
		t.Errorf("Len() = %d; want 6", l.Len())
	}
	err := l.Err()
	const want = "a:1:2: early column\n" +
		"a:1:5: a message\n" +
		"a:1:5: z message\n" +
		"a:2:1: second line\n" +
		"b:1:1: late file"
	if err == nil || err.Error() != want {
		t.Errorf("Err() =\n%v\nwant\n%s", err, want)
	}
	var list ErrorList
	if !errors.As(err, &list) || list.Len() != 5 {
		t.Errorf("Err() is %T with %d errors; want an ErrorList of 5", err, list.Len())
	}
	l.Sort()
	if l[0].Msg != "early column" || l[5].Msg != "late file" {
		t.Errorf("Sort() gave %v", l)
	}
}
