package main

import (
	"encoding/json"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The seed's own choice for the Sabres (a railgun at each Hunter, machineguns at the
// warriors) is ranked against every alternative under expected damage and expected units
// destroyed.
func TestAdviseSabres(t *testing.T) {
	status, out, errOut := runCLI("advise", example("sabres"), "--top", "3")
	if status != exitOK {
		t.Fatalf("status %d: %s", status, errOut)
	}
	goldenFile(t, "advise-sabres.txt", out)
	status, out, errOut = runCLI("advise", example("sabres"), "--objective", "destroyed", "--top", "3", "--json")
	if status != exitOK {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var got struct {
		Advice []struct {
			Total int64
			Plans []struct {
				Value float64
				Picks []struct{ Slot, Target string }
			}
		}
		Standing map[string]struct {
			Value      float64
			Rank, Tied int64
		} `json:"scenario_action"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	if got.Advice[0].Total != 1000 {
		t.Errorf("%d plans, want 1000 (5 targets for each railgun, 2 for each machinegun)", got.Advice[0].Total)
	}
	// Under expected damage the seed's plan is among the best; under units destroyed,
	// putting every railgun into one Hunter does better than spreading them.
	if s := got.Standing["expected"]; s.Rank != 1 {
		t.Errorf("expected damage: the seed's plan ranks %d, want 1", s.Rank)
	}
	s := got.Standing["destroyed"]
	if s.Rank < 2 || s.Value >= got.Advice[0].Plans[0].Value {
		t.Errorf("destroyed: the seed's plan ranks %d with %.4f; the best is %.4f", s.Rank, s.Value, got.Advice[0].Plans[0].Value)
	}
	hunters := map[string]bool{}
	for _, p := range got.Advice[0].Plans[0].Picks {
		if strings.Contains(p.Slot, "Railgun") {
			hunters[p.Target] = true
		}
	}
	if len(hunters) != 1 {
		t.Errorf("destroyed: the best plan spreads the railguns over %v", hunters)
	}
}

func TestAdviseRefuses(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--objective", "most"}, "unknown objective"},
		{[]string{"--objective", "destroy:nobody"}, `destroy:nobody names no enemy unit of UCM`},
		{[]string{"--objective", "at_least:0"}, "at_least needs a count"},
		{[]string{"--top", "0"}, "--top"},
		{[]string{"--actor", "hunters", "--side", "UCM"}, `no squad "hunters"`},
	} {
		status, _, errOut := runCLI(append([]string{"advise", example("sabres")}, tc.args...)...)
		if status == exitOK || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: status %d, %q; want %q", tc.args, status, errOut, tc.want)
		}
	}
}

// The danger map's picture shows the long wall's shadow: just behind the wall (south,
// away from the guns) the cells are the palest colour, just in front of it dark.
func TestDangerPlotShowsTheWallsShadow(t *testing.T) {
	path := filepath.Join(t.TempDir(), "danger.png")
	status, out, errOut := runCLI("danger", example("crossfire"), "--side", "UCM", "--as", "Sabre", "--area", "0,0,48,48", "--plot", path)
	if status != exitOK {
		t.Fatalf("status %d: %s", status, errOut)
	}
	if !strings.Contains(out, "96 × 96 points") {
		t.Errorf("output:\n%s", out)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	// plotDanger's layout: 10-point cells from a 28-point margin, 24 more below for the
	// legend, rows counted up from the bottom; PNGs are drawn at 96 dpi.
	const px = 96.0 / 72
	h := img.Bounds().Dy()
	pixel := func(x, y float64) (r, g, b uint32) {
		cx := (28 + ((x-0.25)/0.5+0.5)*10) * px
		cy := float64(h) - (52+((y-0.25)/0.5+0.5)*10)*px
		r, g, b, _ = img.At(int(cx), int(cy)).RGBA()
		return r >> 8, g >> 8, b >> 8
	}
	if r, g, b := pixel(24.25, 24.75); r < 0xf0 || g < 0xf0 {
		t.Errorf("behind the wall the picture is #%02x%02x%02x, want the palest", r, g, b)
	}
	if r, g, b := pixel(24.25, 28.75); r > 0x80 || g > 0x40 {
		t.Errorf("in front of the wall the picture is #%02x%02x%02x, want dark red", r, g, b)
	}
	if r, g, b := pixel(24.25, 26.5); r != 0x9a || g != 0x9a || b != 0x9a {
		t.Errorf("the wall itself is #%02x%02x%02x, want grey", r, g, b)
	}
}

func TestDangerGoldenAndJSON(t *testing.T) {
	status, out, errOut := runCLI("danger", example("crossfire"), "--side", "UCM", "--as", "Sabre", "--step", "2")
	if status != exitOK {
		t.Fatalf("status %d: %s", status, errOut)
	}
	goldenFile(t, "danger-crossfire.txt", out)
	status, out, errOut = runCLI("danger", example("crossfire"), "--side", "UCM", "--as", "Sabre", "--step", "4", "--objective", "expected", "--json")
	if status != exitOK {
		t.Fatalf("status %d: %s", status, errOut)
	}
	var got struct {
		Danger struct {
			Cols, Rows int
			Values     []*float64
			Objective  string
		}
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	d := got.Danger
	if d.Objective != "expected" || len(d.Values) != d.Cols*d.Rows || d.Cols == 0 {
		t.Fatalf("%+v", d)
	}
	nulls := 0
	for _, v := range d.Values {
		if v == nil {
			nulls++
		}
	}
	if nulls == 0 {
		t.Error("no point inside solid terrain")
	}
	for _, args := range [][]string{{"--as", "Tank"}, {"--step", "-1"}, {"--area", "1,2,3"}, {"--objective", "at_least:2"}} {
		full := append([]string{"danger", example("crossfire"), "--side", "UCM", "--as", "Sabre"}, args...)
		if status, _, _ := runCLI(full...); status == exitOK {
			t.Errorf("%v accepted", args)
		}
	}
}
