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
	if status, out, errOut := runCLI("verify", forged); status == exitOK ||
		!strings.Contains(errOut, "REJECTED: action 0, die 2: the log says damage: sabre-1 Avenger Railgun at hunter-1, hit 1 rolled 6 on a d6, the action's dice give damage: sabre-1 Avenger Railgun at hunter-1, hit 1: 5 on a d6") {
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
