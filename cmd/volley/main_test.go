package main

import (
	"bytes"
	"encoding/json"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rulestest"
)

// runCLI runs the CLI in-process and returns its exit status and output.
func runCLI(args ...string) (status int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	status = run(args, &env{stdout: &out, stderr: &errOut})
	return status, out.String(), errOut.String()
}

// goldenFile compares got with testdata/name, or rewrites it with -update.
func goldenFile(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	rulestest.Golden(t, path, got)
}

var exampleNames = []string{
	"dropzone/sabres", "dropzone/coherency-evasion", "dropzone/equalizer-vs-hunter", "dropzone/checks", "dropzone/moves",
	"warengine/murphy", "warengine/murphy-pass", "warengine/bolter", "warengine/cubicles", "warengine/moves",
	"warfare/longbowmen", "warfare/longbowmen-reversed", "warfare/longbowmen-existing", "warfare/longbowmen-alternate",
	"warstrike/elevated-ruin", "warstrike/split-fire", "warstrike/obstacles", "warstrike/who-may-shoot", "warstrike/moves", "warfare/moves",
	"republique/moves",
}

// refusedExamples are the examples whose action Resolve refuses, with a word the
// refusal must hold.
var refusedExamples = map[string]string{
	"dropzone/checks":         "out_of_arc",
	"warstrike/who-may-shoot": "Who Can Shoot?",
}

// nothingFiresExamples are the examples of which no shot can be taken: aim and odds
// show why and exit 1, with the refusal at its line:col on stderr.
var nothingFiresExamples = map[string]string{
	"warstrike/who-may-shoot": "who-may-shoot.yaml:25:9: runners cannot shoot: runners chose At-The-Double",
}

// example is the path of an example scenario: a dropzone example by its bare name, or
// "system/name".
func example(name string) string {
	if !strings.Contains(name, "/") {
		name = "dropzone/" + name
	}
	return filepath.Join("..", "..", "examples", name+".yaml")
}

func TestGoldenExamples(t *testing.T) {
	for _, name := range exampleNames {
		for _, c := range []struct {
			suffix string
			args   []string
		}{
			{"aim.txt", []string{"aim"}},
			{"odds.json", []string{"odds", "--json"}},
			{"odds.txt", []string{"odds"}},
			{"resolve.json", []string{"resolve", "--seed", "7", "--json"}},
			{"resolve.txt", []string{"resolve", "--seed", "7"}},
		} {
			t.Run(name+"."+c.suffix, func(t *testing.T) {
				status, out, errOut := runCLI(append(c.args, example(name))...)
				golden := strings.ReplaceAll(name, "/", "-") + "." + c.suffix
				if refused, ok := refusedExamples[name]; ok && strings.HasPrefix(c.suffix, "resolve") {
					// Resolve refuses the shots that cannot be taken, naming each.
					if status != exitInput || !strings.Contains(errOut, refused) {
						t.Fatalf("status %d, stderr %q; want 1 and the refused shots", status, errOut)
					}
					goldenFile(t, golden, errOut)
					return
				}
				if why, ok := nothingFiresExamples[name]; ok {
					if status != exitInput || !strings.Contains(errOut, why) {
						t.Fatalf("status %d, stderr %q; want 1 and %q", status, errOut, why)
					}
					goldenFile(t, golden, out)
					return
				}
				if status != exitOK {
					t.Fatalf("status %d, stderr:\n%s", status, errOut)
				}
				goldenFile(t, golden, out)
			})
		}
	}
}

// TestWarStrikeAimJSON is `volley aim examples/warstrike/elevated-ruin.yaml --json`: the
// 24" sight distance of the text's example, the target seen at 20" and not at 26".
func TestWarStrikeAimJSON(t *testing.T) {
	status, out, errOut := runCLI("aim", example("warstrike/elevated-ruin"), "--json")
	if status != exitOK {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, want := range []string{`20\" ≤ 24\" sight distance`, `wood: 26\" > 24\" sight distance`, `"status": "blocked"`, `"status": "ok"`} {
		if !strings.Contains(out, want) {
			t.Errorf("aim --json lacks %s:\n%s", want, out)
		}
	}
	goldenFile(t, "warstrike-elevated-ruin.aim.json", out)
}

// TestMustShow checks the numbers the issue names, through the CLI's JSON.
func TestMustShow(t *testing.T) {
	_, out, _ := runCLI("odds", example("coherency-evasion"), "--json")
	if !strings.Contains(out, `"need": 6,`) || !strings.Contains(out, `"p_hit": 0.16666666666666666,`) {
		t.Errorf("coherency-evasion: want need 6 and p_hit 1/6 in:\n%s", out)
	}
	_, out, _ = runCLI("odds", example("equalizer-vs-hunter"), "--json")
	if !strings.Contains(out, "\"damage\": {\n          \"0\": 1\n        }") || !strings.Contains(out, `"p_destroyed": 0`) {
		t.Errorf("equalizer-vs-hunter: want damage all at 0 and p_destroyed 0 in:\n%s", out)
	}
}

func TestResolveIsByteIdentical(t *testing.T) {
	_, first, _ := runCLI("resolve", example("sabres"), "--seed", "7", "--json")
	for range 5 {
		if _, again, _ := runCLI("resolve", example("sabres"), "--seed", "7", "--json"); again != first {
			t.Fatal("two runs with seed 7 differ")
		}
	}
	if _, other, _ := runCLI("resolve", example("sabres"), "--seed", "8", "--json"); other == first {
		t.Error("seeds 7 and 8 rolled the same")
	}
}

func TestBadScenarioReportsEveryError(t *testing.T) {
	status, out, errOut := runCLI("odds", filepath.Join("testdata", "bad.yaml"))
	if status != exitInput {
		t.Errorf("status %d; want %d", status, exitInput)
	}
	if out != "" {
		t.Errorf("stdout %q; want nothing", out)
	}
	want := "testdata/bad.yaml:5:5: unknown field \"armor\" (did you mean \"armour\"?)\n" +
		"testdata/bad.yaml:10:102: shots: want a number of shots such as 2 or D3, got \"two\"\n"
	if errOut != want {
		t.Errorf("stderr:\n%s\nwant both errors, as\n%s", errOut, want)
	}
	goldenFile(t, "bad.stderr", errOut)
}

func TestExitStatuses(t *testing.T) {
	tests := []struct {
		args   []string
		status int
		stderr string
	}{
		{[]string{"odds", "testdata/no-such-file.yaml"}, exitInput, "no-such-file.yaml"},
		{[]string{"odds", "--frobnicate", example("sabres")}, exitUsage, "unknown flag --frobnicate"},
		{[]string{"resolve", example("sabres")}, exitUsage, "--seed"},
		{[]string{"sim", example("sabres"), "--trials", "0"}, exitUsage, "--trials"},
		{[]string{"odds", example("sabres"), "--plot", "x.gif"}, exitUsage, ".png or .svg"},
		{[]string{"dice", "2d"}, exitInput, "col 3"},
		{[]string{"rulesets"}, exitOK, ""},
		{[]string{"--help"}, exitOK, ""},
		{[]string{}, exitUsage, ""},
	}
	for _, tt := range tests {
		status, _, errOut := runCLI(tt.args...)
		if status != tt.status || !strings.Contains(errOut, tt.stderr) {
			t.Errorf("volley %s: status %d, stderr %q; want %d and %q", strings.Join(tt.args, " "), status, errOut, tt.status, tt.stderr)
		}
	}
}

func TestPlot(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"odds.png", "odds.svg", "murphy.png", "murphy.svg"} {
		path := filepath.Join(dir, name)
		scenario := example("sabres")
		if strings.HasPrefix(name, "murphy") {
			scenario = example("warengine/murphy")
		}
		if status, _, errOut := runCLI("odds", scenario, "--plot", path); status != exitOK {
			t.Fatalf("status %d: %s", status, errOut)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if strings.HasSuffix(name, ".png") {
			img, err := png.Decode(f)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if b := img.Bounds(); b.Dx() < 300 || b.Dy() < 300 {
				t.Errorf("%s is %v; too small to read", name, b)
			}
		} else if st, _ := f.Stat(); st.Size() < 1000 {
			t.Errorf("%s has %d bytes", name, st.Size())
		}
	}
}

func TestSimIsDeterministic(t *testing.T) {
	args := []string{"sim", example("sabres"), "--trials", "50000", "--seed", "3", "--json"}
	status, first, errOut := runCLI(args...)
	if status != exitOK {
		t.Fatalf("status %d: %s", status, errOut)
	}
	if _, again, _ := runCLI(args...); again != first {
		t.Error("two simulations with one seed differ")
	}
	if !strings.Contains(first, `"exact"`) {
		t.Error("sim --json lacks the exact odds to compare with")
	}
}

func TestDiceCommand(t *testing.T) {
	status, out, _ := runCLI("dice", "2d6", "--json")
	if status != exitOK || !strings.Contains(out, `"7": 0.16666666666666666`) {
		t.Errorf("dice 2d6: status %d, %s", status, out)
	}
	status, out, _ = runCLI("dice", "D6+E", "-v", "E=3")
	if status != exitOK || !strings.Contains(out, "mean 6.5") {
		t.Errorf("dice D6+E with E=3: status %d, %s", status, out)
	}
}

// TestCheck reports every file: the good ones on stdout, every error of the others.
func TestCheck(t *testing.T) {
	status, out, errOut := runCLI("check", example("sabres"), filepath.Join("testdata", "bad.yaml"), filepath.Join("testdata", "missing.yaml"))
	if status != exitInput {
		t.Errorf("status %d; want %d", status, exitInput)
	}
	if !strings.Contains(out, "sabres.yaml: ok (dropzone, 8 units)") {
		t.Errorf("stdout %q lacks the good file", out)
	}
	for _, want := range []string{"bad.yaml:5:5: unknown field", "bad.yaml:10:102: shots:", "missing.yaml: scenario: open"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	if status, _, _ := runCLI("check", example("sabres"), example("warengine/murphy")); status != exitOK {
		t.Errorf("two good files: status %d", status)
	}
	// A scenario whose action the rules refuse does not pass: every refused shot, at its
	// declaration, with the rule.
	status, out, errOut = runCLI("check", example("checks"))
	if status != exitInput || strings.Contains(out, "ok") {
		t.Errorf("checks.yaml: status %d, stdout %q; want 1", status, out)
	}
	for _, want := range []string{
		"checks.yaml:68:7: gun cannot fire its Lance at shielded: ",
		"checks.yaml:69:7: gun-2 cannot fire its Cannon at shielded: gun-2 moved 3\", more than the Cannon M&F of 2\"",
		"checks.yaml:72:7: gun-3 cannot fire its Cannon at behind: the centre of behind is in gun-3's rear arc",
		"checks.yaml:74:7: gun-3 cannot fire its Lance at far: ",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("check checks.yaml: stderr lacks %q:\n%s", want, errOut)
		}
	}
	if n := strings.Count(errOut, "\n"); n != 6 {
		t.Errorf("check checks.yaml: %d errors; want one per refused shot (6):\n%s", n, errOut)
	}
}

// TestNothingFires: aim and odds of an action no shot of which can be taken exit 1 and
// say why, at the declaration; one of which some shot can be taken exits 0.
func TestNothingFires(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(example("warfare/demo"))
	if err != nil {
		t.Fatal(err)
	}
	// Both targets moved beyond the longbow's long range (12").
	path := filepath.Join(dir, "far.yaml")
	far := strings.NewReplacer("at: [0, 3]}", "at: [0, 30]}", "at: [4, 5]}", "at: [4, 50]}").Replace(string(src))
	if err := os.WriteFile(path, []byte(far), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"aim", "odds"} {
		status, _, errOut := runCLI(cmd, example("warstrike/who-may-shoot"))
		if status != exitInput || !strings.Contains(errOut, "who-may-shoot.yaml:25:9: runners cannot shoot") {
			t.Errorf("%s who-may-shoot: status %d, stderr %q; want 1 and why", cmd, status, errOut)
		}
		if status, _, errOut := runCLI(cmd, example("checks")); status != exitOK {
			t.Errorf("%s checks.yaml (some shots can be taken): status %d: %s", cmd, status, errOut)
		}
		status, _, errOut = runCLI(cmd, path)
		for _, want := range []string{"far.yaml:31:14: longbowmen cannot fire at knights: knights is 30\" away", "far.yaml:32:14: longbowmen cannot fire at spearmen: spearmen is 50.16\" away"} {
			if status != exitInput || !strings.Contains(errOut, want) {
				t.Errorf("%s far.yaml: status %d, stderr %q; want 1 and %q", cmd, status, errOut, want)
			}
		}
	}
}

func TestSimText(t *testing.T) {
	status, out, errOut := runCLI("sim", example("coherency-evasion"), "--trials", "20000", "--seed", "5")
	if status != exitOK {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, want := range []string{"20000 trials, seed 5", "skimmer", "(exact 11.1%)", "largest difference"} {
		if !strings.Contains(out, want) {
			t.Errorf("sim output lacks %q:\n%s", want, out)
		}
	}
}

func TestScenarioErrorsAreLines(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{
		"no-ruleset.yaml": "title: nothing\n",
		"list.yaml":       "- a\n- b\n",
		"junk.yaml":       "{{{\n",
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		status, _, errOut := runCLI("odds", path)
		if status != exitInput || !strings.HasPrefix(errOut, path+":") {
			t.Errorf("%s: status %d, stderr %q; want 1 and file:line:col lines", name, status, errOut)
		}
	}
}

// TestWarEngineMustShow checks the numbers through the CLI's JSON.
func TestWarEngineMustShow(t *testing.T) {
	values := func(name string) map[string]float64 {
		t.Helper()
		status, out, errOut := runCLI("odds", example("warengine/"+name), "--json")
		if status != exitOK {
			t.Fatalf("%s: status %d: %s", name, status, errOut)
		}
		var v struct {
			Values map[string]float64 `json:"values"`
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatal(err)
		}
		return v.Values
	}
	for name, want := range map[string]map[string]float64{
		"murphy":   {"chance_to_hit": 55, "max_distance_missed_by": 4},
		"bolter":   {"adjusted_strength": 48, "chance_to_damage": 18},
		"cubicles": {"strength_after_obstacle": 40},
	} {
		got := values(name)
		for k, w := range want {
			if got[k] != w {
				t.Errorf("%s: values.%s = %v; want %v", name, k, got[k], w)
			}
		}
	}
}

// TestBolterTrace: at seed 4 the Bolter's shot is stopped by the target and the trace
// shows the seed's damage example number for number: 48, 98, 48, 18.
func TestBolterTrace(t *testing.T) {
	status, out, errOut := runCLI("resolve", example("warengine/bolter"), "--seed", "4")
	if status != exitOK {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, want := range []string{"adjusted strength", "→ 48", "base damage roll", "→ 98", "direction=front toughness=50 → 48", "square=8,2 → 18"} {
		if !strings.Contains(out, want) {
			t.Errorf("trace lacks %q", want)
		}
	}
	goldenFile(t, "warengine-bolter.resolve-seed4.txt", out)
}

// TestWarfareMustShow checks the numbers through the CLI's JSON.
func TestWarfareMustShow(t *testing.T) {
	for name, want := range map[string]struct {
		final      float64
		casualties map[string]float64
	}{
		"longbowmen":          {36, map[string]float64{"3": 0.4, "4": 0.6}},
		"longbowmen-reversed": {12, map[string]float64{"1": 0.8, "2": 0.2}},
	} {
		status, out, errOut := runCLI("odds", example("warfare/"+name), "--json")
		if status != exitOK {
			t.Fatalf("%s: status %d: %s", name, status, errOut)
		}
		var v struct {
			Values  map[string]float64 `json:"values"`
			Targets []struct {
				Distributions map[string]map[string]float64 `json:"distributions"`
			} `json:"targets"`
		}
		if err := json.Unmarshal([]byte(out), &v); err != nil {
			t.Fatal(err)
		}
		if v.Values["final_missile_factor"] != want.final {
			t.Errorf("%s: final_missile_factor %v; want %v", name, v.Values["final_missile_factor"], want.final)
		}
		got := v.Targets[0].Distributions["casualties"]
		if len(got) != len(want.casualties) {
			t.Errorf("%s: casualties %v; want %v", name, got, want.casualties)
		}
		for k, p := range want.casualties {
			if math.Abs(got[k]-p) > 1e-12 {
				t.Errorf("%s: P(%s casualties) = %v; want %v", name, k, got[k], p)
			}
		}
	}
}

// TestCompare: both columns, and the alternate system's spread the smaller, asserted as
// a relation through --json.
func TestCompare(t *testing.T) {
	a, b := example("warfare/longbowmen-existing"), example("warfare/longbowmen-alternate")
	status, out, errOut := runCLI("compare", a, b)
	if status != exitOK {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, want := range []string{"existing system", "alternate system", "standard deviation", "P(ends Low on Missiles)", "B is the less swingy"} {
		if !strings.Contains(out, want) {
			t.Errorf("compare lacks %q:\n%s", want, out)
		}
	}
	goldenFile(t, "compare-longbowmen.txt", out)
	_, out, _ = runCLI("compare", a, b, "--json")
	var v struct {
		Measure string
		A, B    struct {
			StdDev float64 `json:"stddev"`
			Mean   float64 `json:"mean"`
			PLow   float64 `json:"p_low"`
		}
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatal(err)
	}
	if v.Measure != "casualties" || !(v.B.StdDev < v.A.StdDev) || !(v.B.PLow < v.A.PLow) {
		t.Errorf("compare --json: %+v; want casualties, the alternate's stddev and P(Low) the smaller", v)
	}
	// Any two scenarios with a common measure compare, in any system.
	status, out, errOut = runCLI("compare", example("sabres"), example("coherency-evasion"), "--json")
	if status != exitOK || !strings.Contains(out, `"measure": "damage"`) || !strings.Contains(out, `"target": "hunter-1"`) {
		t.Errorf("compare across dropzone scenarios: %d %s %s", status, errOut, out)
	}
	status, out, _ = runCLI("compare", example("warengine/murphy"), example("warengine/bolter"), "--target-a", "atv", "--target-b", "behind-the-tree")
	if status != exitOK || !strings.Contains(out, "coefficient of variation, as the means differ") {
		t.Errorf("compare across War Engine scenarios: %d %s", status, out)
	}
	if status, _, errOut := runCLI("compare", a, b, "--target", "nobody"); status != exitUsage || !strings.Contains(errOut, "it has knights") {
		t.Errorf("compare --target nobody: %d %s", status, errOut)
	}
	if status, _, errOut := runCLI("compare", example("sabres"), a); status != exitInput || !strings.Contains(errOut, "measure different things") {
		t.Errorf("damage against casualties: status %d, %s", status, errOut)
	}
	plot := filepath.Join(t.TempDir(), "cmp.png")
	if status, _, errOut := runCLI("compare", a, b, "--plot", plot); status != exitOK {
		t.Errorf("compare --plot: %d %s", status, errOut)
	}
}

// TestImpossibleShotWording: a shot no face of the die can make says so, not "needs 0+".
func TestImpossibleShotWording(t *testing.T) {
	var b strings.Builder
	writeAims(&b, []volley.Aim{{Shooter: "gun", Weapon: "6pdr foot", Target: "IR1", Status: volley.StatusOK, Die: 10,
		Reason: "gun may fire at IR1, but no modified roll scores anything on the chart"}})
	if got := b.String(); !strings.Contains(got, "cannot hit: gun may fire at IR1, but no modified roll") || strings.Contains(got, "needs 0+") {
		t.Errorf("an impossible shot reads:\n%s", got)
	}
}
