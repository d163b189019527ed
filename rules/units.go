package rules

// Unit is the unit with the given id of a battle's units, found by byID (each id's index
// in units).
func Unit[U any](units []U, byID map[string]int, id string) (*U, bool) {
	i, ok := byID[id]
	if !ok {
		return nil, false
	}
	return &units[i], true
}

// IDs are the ids of a battle's units in their order (for the hint of an unknown name,
// scenario.Hint): id gives a unit's.
func IDs[U any](units []U, id func(*U) string) []string {
	ids := make([]string, len(units))
	for i := range units {
		ids[i] = id(&units[i])
	}
	return ids
}

// Deploys lists, for each side, the units its deployment places
// (volley.Tabletop.PlanDeployment), in the battle's order: of gives a unit's side and id,
// and whether it deploys at all (not destroyed, not carried in a transport…).
func Deploys[U any](units []U, of func(*U) (side, id string, deploys bool)) map[string][]string {
	out := map[string][]string{}
	for i := range units {
		if side, id, ok := of(&units[i]); ok {
			out[side] = append(out[side], id)
		}
	}
	return out
}
