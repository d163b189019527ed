package scenario

import "testing"

func TestBlockPos(t *testing.T) {
	src := "map:\n  rows: |\n    ..#.\n    .x..\n"
	doc, err := Parse("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Map struct {
			Rows string `yaml:"rows"`
		} `yaml:"map"`
	}
	if err := doc.Decode(&v); err != nil {
		t.Fatal(err)
	}
	if v.Map.Rows != "..#.\n.x..\n" {
		t.Fatalf("rows = %q", v.Map.Rows)
	}
	got := doc.BlockPos(doc.Pos(&v.Map.Rows), 1, 1)
	if want := (Pos{File: "m.yaml", Line: 4, Col: 6}); got != want {
		t.Errorf("BlockPos of the x = %v; want %v", got, want)
	}
}
