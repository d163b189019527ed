package rules

import "github.com/volley-wargames/volley/scenario"

// Index records in byID that id, written at pos, is the battle's unit i, and reports
// whether it could: an id used twice is refused there. Dropzone, Warfare and War Engine
// refuse a repeated unit id in these words.
func Index(errs *scenario.ErrorList, pos scenario.Pos, byID map[string]int, id string, i int) bool {
	if _, dup := byID[id]; dup {
		errs.Add(pos, "unit id %q is used twice", id)
		return false
	}
	byID[id] = i
	return true
}
