package rules

// Pieces are a battle's units, each its side and id, in the battle's order: what
// volley.Tabletop.PointDeployOffers deploys. of gives a unit's side and id.
func Pieces[U any](units []U, of func(*U) (side, id string)) [][2]string {
	out := make([][2]string, 0, len(units))
	for i := range units {
		side, id := of(&units[i])
		out = append(out, [2]string{side, id})
	}
	return out
}
