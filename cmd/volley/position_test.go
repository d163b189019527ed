package main

import (
	"encoding/json"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPosition: volley position on the example by the long wall, as text (golden), JSON
// and a picture. Behind the wall the Sabre is safe from the beast it cannot see; by the
// hab block it goes round; its best point is where both its weapons reach.
func TestPosition(t *testing.T) {
	file := filepath.Join("..", "..", "examples", "dropzone", "position.yaml")
	plot := filepath.Join(t.TempDir(), "position.png")
	out := positionRun(t, "position-dropzone.txt", []string{file, "--unit", "sabre-1", "--step", "1"}, []string{file, "--unit", "sabre-1", "--plot", plot})
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
	checkPicture(t, plot)
}

// TestPositionSquad: a Dropzone squad named as the unit moves as a formation: the text
// (golden) lists each top point's moves, one a Sabre; the JSON's top points carry moves
// and no move; in the terrain's shadow to the south the whole squad is out of danger.
func TestPositionSquad(t *testing.T) {
	file := filepath.Join("..", "..", "examples", "dropzone", "formation.yaml")
	args := []string{file, "--unit", "sabres", "--step", "1"}
	out := positionRun(t, "position-dropzone-squad.txt", args, args)
	var got struct {
		Position struct {
			Unit   string
			Points []struct{ X, Y, Reach, Offence, Danger float64 }
			Top    []struct {
				X, Y  float64
				Move  map[string]any
				Moves []map[string]any
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Position.Unit != "sabres" || len(got.Position.Top) == 0 {
		t.Fatalf("the map of %q, %d top points", got.Position.Unit, len(got.Position.Top))
	}
	for _, tp := range got.Position.Top {
		units := map[any]bool{}
		for _, mv := range tp.Moves {
			units[mv["unit"]] = true
		}
		if tp.Move != nil || len(units) != 3 {
			t.Errorf("top point (%v, %v): move %v, moves of %d units", tp.X, tp.Y, tp.Move, len(units))
		}
	}
	// Back to the south, where the wall and the hab block shadow it, the whole squad is
	// safe; past the wall's end, in the open, it is not.
	shadow, open := false, false
	for _, p := range got.Position.Points {
		shadow = shadow || p.Y <= 8 && p.Danger == 0
		open = open || p.Y >= 14 && p.X >= 19 && p.Danger > 0
	}
	if !shadow || !open {
		t.Errorf("safe in the wall's shadow: %v; in danger past its end: %v", shadow, open)
	}
	if status, _, errOut := runCLI("position", file, "--unit", "sabers"); status != exitInput || !strings.Contains(errOut, "sabres") {
		t.Errorf("a misspelt squad: status %d, %s", status, errOut)
	}
}

// TestPositionWarEngine: on a grid map the map counts squares. Behind the ruined wall
// Hale neither sees nor is seen; on the row by the bushes he sees raider-1 best and is
// most in danger; every point's move is a path of squares he may take.
func TestPositionWarEngine(t *testing.T) {
	args := []string{filepath.Join("..", "..", "examples", "warengine", "position.yaml"), "--unit", "hale"}
	out := positionRun(t, "position-warengine.txt", args, args)
	var got struct{ Position struct{ Grid bool } }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if !got.Position.Grid {
		t.Error("a grid map's position map is not marked grid")
	}
	at := positionPoints(t, out)
	if v, ok := at[[2]float64{13, 10}]; !ok || v[0] != 0 {
		t.Errorf("where Hale stands: %v, %v; want reach 0", v, ok)
	}
	for _, wall := range [][2]float64{{12, 8}, {13, 8}, {14, 8}, {14, 9}} {
		if _, ok := at[wall]; ok {
			t.Errorf("the wall square %v is a place to stand", wall)
		}
	}
	if v := at[[2]float64{14, 10}]; v[1] != 0 || v[2] != 0 {
		t.Errorf("behind the wall: offence %v, danger %v; want 0, 0", v[1], v[2])
	}
	if v := at[[2]float64{9, 6}]; v[0] != 4 || v[1] <= at[[2]float64{13, 11}][1] || v[2] <= 0 {
		t.Errorf("by the bushes: %v; want 4 squares away, more offence than beside the wall, and danger", v)
	}
	for p, v := range at {
		if v[0] > 5 {
			t.Errorf("%v is %v squares away; Hale moves 5", p, v[0])
		}
	}
}

// TestPositionWarfare: the longbowmen's map. The billmen in their way north bend the way
// to the crossbowmen, where the offence and the danger are both highest, and hide ground
// beyond reach behind them; where they stand they are out of every French missile's reach.
func TestPositionWarfare(t *testing.T) {
	args := []string{filepath.Join("..", "..", "examples", "warfare", "position.yaml"), "--unit", "longbowmen", "--danger", "expected"}
	plot := filepath.Join(t.TempDir(), "position.png")
	out := positionRun(t, "position-warfare.txt", args, append(args, "--plot", plot))
	var got struct {
		Position struct {
			Unit string `json:"length_unit"`
			Top  []struct{ Move map[string]any }
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	at := positionPoints(t, out)
	if got.Position.Unit != "in" || len(at) < 300 {
		t.Fatalf("unit %q, %d points", got.Position.Unit, len(at))
	}
	if v, ok := at[[2]float64{0, 0}]; !ok || v[0] != 0 || v[1] <= 0 || v[2] != 0 {
		t.Errorf("where the longbowmen stand: %v; want a point, standing still, with offence and no danger", v)
	}
	if v, ok := at[[2]float64{0, 5.5}]; ok {
		t.Errorf("behind the billmen, 5.5\" as the crow flies: reachable, %v", v)
	}
	crow := math.Hypot(3, 3.5)
	if v, ok := at[[2]float64{-3, 3.5}]; !ok || v[0] < crow+0.01 || v[1] < 2.4-1e-9 || v[2] < 1.2-1e-9 {
		t.Errorf("by the crossbowmen: %v; want the way round the billmen, longer than %v, and the most of both", v, crow)
	}
	if len(got.Position.Top) == 0 || len(got.Position.Top[0].Move["path"].([]any)) < 2 {
		t.Errorf("the best point's move does not go round the billmen: %v", got.Position.Top)
	}
	checkPicture(t, plot)
}

// TestPositionRepublique: a Republique battery's map, in cm round the bases of its own
// line. Behind the line it cannot fire (a friend in its frontage zone); north of the line
// it comes the long way round or not at all; in the copse the Austrian battery does not
// see it, beside the copse it does; limbering and unlimbering take 8 of its 30 cm.
func TestPositionRepublique(t *testing.T) {
	file := filepath.Join("..", "..", "examples", "republique", "position.yaml")
	out := positionRun(t, "position-republique.txt", []string{file, "--unit", "fb", "--step", "2"}, []string{file, "--unit", "fb"})
	var got struct {
		Position struct {
			Length string `json:"length_unit"`
			Step   float64
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Position.Length != "cm" || got.Position.Step != 1 {
		t.Errorf("unit %q, step %v; want cm, 1", got.Position.Length, got.Position.Step)
	}
	at := positionPoints(t, out)
	for p, v := range at {
		if v[0] > 26+1e-9 {
			t.Errorf("(%v, %v) is %v cm away: fb has 26 cm once limbered", p[0], p[1], v[0])
		}
		if v[0] > 22+1e-9 && v[1] != 0 {
			t.Errorf("(%v, %v): limbered there, it scores %v", p[0], p[1], v[1])
		}
	}
	if v, ok := at[[2]float64{40, 16}]; !ok || v != [3]float64{0, 0, 0} {
		t.Errorf("where it stands: %v, %v; want reach 0, no fire through its own line, safe", v, ok)
	}
	if _, ok := at[[2]float64{40, 26}]; ok {
		t.Error("the line's bases are a place to stand")
	}
	if v, ok := at[[2]float64{40, 30}]; ok && v[0] < 20 {
		t.Errorf("north of the line: %v cm away, shorter than the way round it", v[0])
	}
	if v := at[[2]float64{57, 10}]; v[1] <= 0 || v[2] != 0 {
		t.Errorf("in the copse: %v; want fire and no danger", v)
	}
	if v := at[[2]float64{54, 20}]; v[1] <= 0 || v[2] <= 0 {
		t.Errorf("beside the copse: %v; want fire and danger", v)
	}
}

// TestPositionWarStrike: a WarStrike unit's map moves its formation. Behind the field
// wall alpha neither sees the raiders nor is seen; past the wall's end it sees them, and
// they it; beyond the wall it goes round the wall's end; past a Shooting Advance's 4" it
// may not shoot; the house holds no point.
func TestPositionWarStrike(t *testing.T) {
	args := []string{filepath.Join("..", "..", "examples", "warstrike", "position.yaml"), "--unit", "alpha"}
	at := positionPoints(t, positionRun(t, "position-warstrike.txt", args, args))
	for p, v := range at {
		if v[0] > 4 && v[1] != 0 {
			t.Errorf("(%v, %v) is %v\" away, past a Shooting Advance, yet scores offence %v", p[0], p[1], v[0], v[1])
		}
	}
	if v, ok := at[[2]float64{15.5, 10}]; !ok || v != [3]float64{} {
		t.Errorf("where alpha stands: %v, %v; want nothing seen, no danger", v, ok)
	}
	if v := at[[2]float64{14.5, 13}]; v[0] == 0 || v[1] != 0 || v[2] != 0 {
		t.Errorf("behind the wall: %v; want no offence and no danger", v)
	}
	if v := at[[2]float64{18.5, 12}]; v[1] <= 0 || v[2] <= 0 {
		t.Errorf("past the wall's end: %v; want offence and danger", v)
	}
	if v, ok := at[[2]float64{15.5, 17}]; !ok || v[0] < 7.5 {
		t.Errorf("beyond the wall, 7\" as the crow flies: %v, %v; want the way round its end", v, ok)
	}
	if _, ok := at[[2]float64{22.5, 5}]; ok {
		t.Error("a point in the house")
	}
}

// positionRun runs volley position with text's arguments and checks its text against
// the golden file, then with asJSON's and --json, and returns the JSON.
func positionRun(t *testing.T, golden string, text, asJSON []string) string {
	t.Helper()
	status, out, errOut := runCLI(append([]string{"position"}, text...)...)
	if status != exitOK {
		t.Fatalf("status %d: %s", status, errOut)
	}
	goldenFile(t, golden, out)
	status, out, errOut = runCLI(append(append([]string{"position"}, asJSON...), "--json")...)
	if status != exitOK {
		t.Fatalf("status %d: %s", status, errOut)
	}
	return out
}

// positionPoints are the points of a position map's JSON by their place: reach, offence
// and danger.
func positionPoints(t *testing.T, out string) map[[2]float64][3]float64 {
	t.Helper()
	var got struct {
		Position struct {
			Points []struct{ X, Y, Reach, Offence, Danger float64 }
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	at := map[[2]float64][3]float64{}
	for _, p := range got.Position.Points {
		at[[2]float64{p.X, p.Y}] = [3]float64{p.Reach, p.Offence, p.Danger}
	}
	return at
}

// checkPicture fails the test unless path is a PNG picture at least 400 wide.
func checkPicture(t *testing.T, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if img, err := png.Decode(f); err != nil || img.Bounds().Dx() < 400 {
		t.Errorf("the picture: %v", err)
	}
}
