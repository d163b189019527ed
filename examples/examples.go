// Package examples holds volley's example scenarios, embedded so that `volley serve`
// can start a demo battle of each rule system without files beside the binary.
package examples

import "embed"

// FS holds every example scenario, by path: dropzone/battle.yaml, warengine/murphy.yaml…
//
//go:embed dropzone/*.yaml warengine/*.yaml warfare/*.yaml republique/*.yaml warstrike/*.yaml
var FS embed.FS

// Demos names the example each rule system's demo battle starts from: its whole
// battle, with deployment zones, units that move and fire, and an end (a last round,
// points, objectives). They carry everything inline (no tables file), as a posted
// scenario must.
var Demos = map[string]string{
	"dropzone":   "dropzone/battle.yaml",
	"warengine":  "warengine/battle.yaml",
	"warfare":    "warfare/battle.yaml",
	"republique": "republique/battle.yaml",
	"warstrike":  "warstrike/battle.yaml",
}
