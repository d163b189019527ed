package http_test

import (
	"bufio"
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/volley-wargames/volley/examples"
	vhttp "github.com/volley-wargames/volley/http"
	"github.com/volley-wargames/volley/servertest"
)

// TestDangerProgress: with progress=true a danger map answers lines of JSON, its rows
// done as it works, then the same map as without; a client that goes away after the
// first report stops the map, and the heavy place is free for the next at once.
func TestDangerProgress(t *testing.T) {
	t.Cleanup(vhttp.SetProgressEvery(time.Millisecond))
	limits := servertest.Limits()
	limits.Heavy = 1
	_, ts, logs := logServer(t, limits)
	id, _ := battle(t, ts.URL, crossfire(t))

	status, plain := call(t, "GET", dangerURL(ts.URL, id, 0.5), watch(id), "", nil)
	if status != http.StatusOK {
		t.Fatalf("danger: %d %v", status, plain)
	}
	reports, last := progressLines(t, dangerURL(ts.URL, id, 0.5)+"&progress=true", watch(id))
	rows := plain["danger"].(map[string]any)["rows"].(float64)
	if len(reports) < 2 || reports[len(reports)-1]["done"] != rows {
		t.Fatalf("progress reports of a %g-row map reported every millisecond: %v (want two or more, the last all rows)", rows, reports)
	}
	for i, r := range reports {
		if r["rows"] != rows || r["done"] < 1 || r["done"] > rows || i > 0 && r["done"] < reports[i-1]["done"] {
			t.Errorf("report %d: %v (after %v)", i, r, reports[max(i-1, 0)])
		}
	}
	if !reflect.DeepEqual(last["danger"], plain["danger"]) {
		t.Error("the map at the end of the progress differs from the map without it")
	}

	// A client gone after the first report: the map stops (the access log has it, once its
	// handler returns), and the place is free.
	before := strings.Count(logs.String(), "/danger")
	req, _ := http.NewRequest("GET", dangerURL(ts.URL, id, 0.2)+"&progress=1", nil)
	req.Header.Set("Authorization", "Bearer "+watch(id))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	first, _ := bufio.NewReader(resp.Body).ReadString('\n')
	resp.Body.Close()
	if !strings.Contains(first, `"progress"`) {
		t.Fatalf("the first line: %q", first)
	}
	gone := time.Now()
	for strings.Count(logs.String(), "/danger") == before {
		if time.Since(gone) > 5*time.Second {
			t.Fatal("the abandoned map was still running 5 s later")
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Logf("the abandoned map stopped %v after its client left", time.Since(gone).Round(time.Millisecond))
	if a := send(t, "GET", dangerURL(ts.URL, id, 1), watch(id), nil); a.status != 200 {
		t.Errorf("the next map: %d", a.status)
	}

	if status, v := call(t, "GET", dangerURL(ts.URL, id, 1)+"&progress=yes", watch(id), "", nil); status != 400 || v["field"] != "progress" {
		t.Errorf("progress=yes: %d %v", status, v)
	}
}

// progressLines asks u with progress and reads its lines: the progress reports, then the
// last line (the answer or its error).
func progressLines(t *testing.T, u, token string) (reports []map[string]float64, last map[string]any) {
	t.Helper()
	req, _ := http.NewRequest("GET", u, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || !strings.HasPrefix(ct, "application/x-ndjson") {
		t.Fatalf("progress: %d %s", resp.StatusCode, ct)
	}
	lines := bufio.NewScanner(resp.Body)
	lines.Buffer(nil, 1<<24)
	for lines.Scan() {
		var line map[string]any
		if err := json.Unmarshal(lines.Bytes(), &line); err != nil {
			t.Fatalf("a line that is not JSON: %.200s", lines.Bytes())
		}
		if p, ok := line["progress"].(map[string]any); ok {
			reports = append(reports, map[string]float64{"done": p["done"].(float64), "rows": p["rows"].(float64)})
			continue
		}
		last = line
	}
	return reports, last
}

// TestProgressLastCount: a map whose clock never ticks while it works (every hour) still
// reports once, its last count, all rows done, before the map: the bar a client draws
// reaches its end however fast the map or busy the machine.
func TestProgressLastCount(t *testing.T) {
	t.Cleanup(vhttp.SetProgressEvery(time.Hour))
	ts := serve(t, servertest.SQLite(t))
	id, _ := battle(t, ts.URL, crossfire(t))
	reports, last := progressLines(t, dangerURL(ts.URL, id, 1)+"&progress=true", watch(id))
	d, _ := last["danger"].(map[string]any)
	if d == nil {
		t.Fatalf("no map after the progress: %v", last)
	}
	if rows := d["rows"].(float64); len(reports) != 1 || reports[0]["done"] != rows || reports[0]["rows"] != rows {
		t.Errorf("reports %v; want one, all %g rows done", reports, rows)
	}
}

// TestPositionProgress: every system's position map answers with its progress as a danger
// map does: one run of reports (the danger layer's rows, then the offence layer's, as
// stages of one count), rising to all of them, then the same map as without progress.
func TestPositionProgress(t *testing.T) {
	t.Cleanup(vhttp.SetProgressEvery(time.Millisecond))
	ts := serve(t, servertest.SQLite(t))
	for _, tc := range []struct {
		file, unit string
		stages     float64 // the grids it fills: the danger layer's, then the offence's; WarStrike's one does both
	}{
		{"dropzone/position.yaml", "sabre-1", 2},
		{"dropzone/formation.yaml", "sabres", 1}, // a squad as a formation: one pass
		{"warengine/position.yaml", "hale", 2},
		{"warfare/position.yaml", "longbowmen", 2},
		{"republique/position.yaml", "fb", 2},
		{"warstrike/position.yaml", "alpha", 1},
	} {
		id, _ := battle(t, ts.URL, example(t, tc.file))
		u := ts.URL + "/api/battles/" + id + "/position?unit=" + tc.unit
		status, plain := call(t, "GET", u, watch(id), "", nil)
		if status != http.StatusOK {
			t.Fatalf("%s: %d %v", tc.file, status, plain)
		}
		reports, last := progressLines(t, u+"&progress=true", watch(id))
		rows := tc.stages * plain["position"].(map[string]any)["rows"].(float64)
		// However fast the map or busy the machine, its last count is reported before it.
		if len(reports) == 0 || reports[len(reports)-1]["done"] != rows {
			t.Errorf("%s: the reports %v do not end with all %g rows done", tc.file, reports, rows)
		}
		for i, r := range reports {
			if r["rows"] != rows || r["done"] < 1 || r["done"] > r["rows"] || i > 0 && r["done"] < reports[i-1]["done"] {
				t.Errorf("%s: report %d: %v (after %v)", tc.file, i, r, reports[max(i-1, 0)])
			}
		}
		if !reflect.DeepEqual(last["position"], plain["position"]) {
			t.Errorf("%s: the map at the end of the progress differs from the map without it", tc.file)
		}
		wantFieldError(t, tc.file+": progress=yes", u+"&progress=yes", watch(id), "progress")
	}
	// An error after the progress began has its field, as the plain answer's.
	id, _ := battle(t, ts.URL, example(t, "dropzone/position.yaml"))
	wantFieldError(t, "an unknown unit with progress", ts.URL+"/api/battles/"+id+"/position?unit=nobody&progress=true", watch(id), "unit")
}

// TestAdvisorInTheView: every demo's view says it offers best plans and a danger map, and
// lists what the map may place; the first place of each side maps.
func TestAdvisorInTheView(t *testing.T) {
	ts := serve(t, servertest.SQLite(t))
	for _, system := range []string{"dropzone", "warengine", "warfare", "republique", "warstrike"} {
		body, err := examples.FS.ReadFile(examples.Demos[system])
		if err != nil {
			t.Fatal(err)
		}
		id, _ := battle(t, ts.URL, body)
		status, v := call(t, "GET", ts.URL+"/api/battles/"+id, watch(id), "", nil)
		if status != 200 {
			t.Fatalf("%s: %d %v", system, status, v)
		}
		adv := v["advisor"].(map[string]any)
		places, _ := adv["places"].([]any)
		if adv["plans"] != true || adv["danger"] != true || len(places) == 0 {
			t.Errorf("%s: advisor %v", system, adv)
			continue
		}
		mapped := map[string]bool{}
		for _, p := range places {
			pl := p.(map[string]any)
			side, as := pl["side"].(string), pl["as"].(string)
			if side == "" || mapped[side] || pl["label"] == "" {
				continue
			}
			mapped[side] = true
			q := url.Values{"side": {side}, "as": {as}}
			if system != "warengine" {
				q.Set("step", "5")
			}
			if status, v := call(t, "GET", ts.URL+"/api/battles/"+id+"/danger?"+q.Encode(), watch(id), "", nil); status != 200 {
				t.Errorf("%s: the place %v does not map: %d %v", system, pl, status, v)
			}
		}
		if len(mapped) < 2 {
			t.Errorf("%s: places of %d sides: %v", system, len(mapped), places)
		}
	}
}
