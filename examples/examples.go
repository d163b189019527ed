// Package examples holds volley's example scenarios, embedded so that `volley serve`
// can start a demo battle of each rule system without files beside the binary.
package examples

import "embed"

// FS holds every example scenario, by path: dropzone/sabres.yaml, warengine/murphy.yaml…
//
//go:embed dropzone/*.yaml warengine/*.yaml warfare/*.yaml republique/*.yaml warstrike/*.yaml
var FS embed.FS

// Demos names the example each rule system's demo battle starts from. They carry
// everything inline (no tables file), as a posted scenario must.
var Demos = map[string]string{
	"dropzone":   "dropzone/sabres.yaml",
	"warengine":  "warengine/murphy.yaml",
	"warfare":    "warfare/demo.yaml",
	"republique": "republique/demo.yaml",
	"warstrike":  "warstrike/demo.yaml",
}
