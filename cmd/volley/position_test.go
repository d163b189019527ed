package main

import (
	"encoding/json"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// TestPosition: volley position on the example by the long wall, as text (golden), JSON
// and a picture. Behind the wall the Sabre is safe from the beast it cannot see; by the
// hab block it goes round; its best point is where both its weapons reach.
func TestPosition(t *testing.T) {
	file := filepath.Join("..", "..", "examples", "dropzone", "position.yaml")
	status, out, errOut := runCLI("position", file, "--unit", "sabre-1", "--step", "1")
	if status != exitOK {
		t.Fatalf("status %d: %s", status, errOut)
	}
	goldenFile(t, "position-dropzone.txt", out)
	plot := filepath.Join(t.TempDir(), "position.png")
	status, out, errOut = runCLI("position", file, "--unit", "sabre-1", "--json", "--plot", plot)
	if status != exitOK {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var got struct {
		Position struct {
			Points []struct{ X, Y, Reach, Offence, Danger float64 }
			Pareto []struct{ X, Y, Offence, Danger float64 }
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	at := func(x, y float64) (float64, float64, float64, bool) {
		for _, p := range got.Position.Points {
			if math.Abs(p.X-x) < 0.26 && math.Abs(p.Y-y) < 0.26 {
				return p.Reach, p.Offence, p.Danger, true
			}
		}
		return 0, 0, 0, false
	}
	// Just behind the long wall, west: neither beast sees it there.
	if _, _, d, ok := at(9.75, 16.75); !ok || d != 0 {
		t.Errorf("behind the wall: reachable %v, danger %v; want safe", ok, d)
	}
	// Out in the open by the wall's end: beast-2 sees it.
	if _, o, d, ok := at(16, 15); !ok || d <= 0 || o <= 0 {
		t.Errorf("by the wall's end: reachable %v, offence %v, danger %v", ok, o, d)
	}
	// East of the hab block, 10" away round it but nearer as the crow flies: reached the
	// long way or not at all.
	if r, _, _, ok := at(27.5, 11); ok && r < 11.5 {
		t.Errorf("past the hab block: %v away, shorter than the way round it", r)
	}
	if _, _, _, ok := at(23, 11); ok {
		t.Error("inside the hab block is reachable")
	}
	if len(got.Position.Pareto) == 0 {
		t.Error("no front")
	}
	f, err := os.Open(plot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if img, err := png.Decode(f); err != nil || img.Bounds().Dx() < 400 {
		t.Errorf("the picture: %v", err)
	}
}
