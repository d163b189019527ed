package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVerifyHandRolled: a Dropzone battle whose scenario says dice: players, played
// through the API on a SQLite file with the shot's two dice given by hand and ended;
// `volley verify` replays it from the faces in its log and says so, and refuses the log
// with one face changed.
func TestVerifyHandRolled(t *testing.T) {
	base := sqliteServer(t)
	scen, err := os.ReadFile(filepath.Join("..", "..", "examples", "dropzone", "sabres.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	scen = bytes.Replace(scen, []byte("\nruleset: dropzone\n"), []byte("\nruleset: dropzone\ndice: players\n"), 1)
	status, v, _ := apiCall(t, "POST", base+"/api/battles", "", scen)
	if status != 201 || v["dice"] != "players" {
		t.Fatalf("create: %d %v", status, v)
	}
	id, ucm := v["id"].(string), v["tokens"].(map[string]any)["UCM"].(string)
	shot := "squad: sabres\ndeclarations: [{unit: sabre-1, weapon: Avenger Railgun, target: hunter-1}]\ndice: [4, 5]"
	if status, v, _ := apiCall(t, "POST", base+"/api/battles/"+id+"/actions", ucm, []byte(shot)); status != 200 {
		t.Fatalf("the shot: %d %v", status, v)
	}
	apiCall(t, "POST", base+"/api/battles/"+id+"/end", ucm, nil)
	_, _, raw := apiCall(t, "GET", base+"/api/battles/"+id+"/log", ucm, nil)

	dir := t.TempDir()
	real := filepath.Join(dir, "real.json")
	forged := filepath.Join(dir, "forged.json")
	os.WriteFile(real, raw, 0o644)
	os.WriteFile(forged, bytes.Replace(raw, []byte(`"value":5,"by"`), []byte(`"value":6,"by"`), 1), 0o644)
	if bytes.Equal(raw, mustRead(t, forged)) {
		t.Fatal("the forgery changed nothing")
	}
	status, out, errOut := runCLI("verify", real)
	if status != exitOK || !strings.Contains(out, "VERIFIED: 1 actions replay exactly from the 2 dice the players rolled by hand") {
		t.Errorf("verify: %d %s %s", status, out, errOut)
	}
	// UCM's two dice, a 4 and a 5 on d6s: of the 36 ways two throws fall, the 6 doubles
	// spread more unevenly and the 30 others as evenly, so every way is at least as
	// uneven (p = 1).
	if want := "UCM's d6: 2 throws, faces 1–6: 0 0 0 1 1 0; chi-square 4.00, p = 1 (exact): as fair dice fall"; !strings.Contains(out, want) {
		t.Errorf("verify does not test the players' dice against fair ones:\n%s\nwant a line %q", out, want)
	}
	// Across battles: the same log twice pools four throws of UCM's. Two pairs: of the
	// 1,296 ways four d6 fall, two pairs (90), three alike (120) and four alike (6) are
	// as uneven, 216 in all.
	status, out, errOut = runCLI("fair", real, real, "--by", "UCM")
	if want := "UCM's d6: 4 throws, faces 1–6: 0 0 0 2 2 0; chi-square 8.00, p = 0.167 (exact)"; status != exitOK || !strings.Contains(out, want) {
		t.Errorf("fair: %d %s %s; want %q", status, out, errOut, want)
	}
	if status, out, errOut := runCLI("fair", real, forged); status == exitOK || !strings.Contains(errOut, "forged.json: REJECTED") {
		t.Errorf("fair pooled a forged log: %d %s %s", status, out, errOut)
	}
	if status, out, errOut := runCLI("verify", forged); status == exitOK ||
		!strings.Contains(errOut, "REJECTED: action 0, die 2: the log says damage: sabre-1 Avenger Railgun at hunter-1, hit 1, damages on 3+ rolled 6 on a d6, the action's dice give damage: sabre-1 Avenger Railgun at hunter-1, hit 1, damages on 3+: 5 on a d6") {
		t.Errorf("verify a log with a face changed: %d %s %s", status, out, errOut)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
