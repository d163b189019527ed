package opponent

import "encoding/json"

// A squad's members moving before the squad fires, as the strong level weighs it
// (session 46).
//
// Where a squad of several units shoots as one action, once a turn (Dropzone's: every
// unit of the squad declares its targets, then the squad's shooting is done), the
// squad's fire is the fire of every member at once. A member not yet in a place to
// shoot has no part in it, and once the squad has fired it has no shot left: its
// position map then counts no offence anywhere. A fire option is worth what it is
// likely to destroy with the members that can shoot now; a member's move to a place
// with a shot is worth its gain over standing still, by rank, which counts that shot
// already. Compared as they were, a fire worth more than the move's gain was taken
// first, and the member's shot was lost with it: in the last round sabre-1 alone fired
// at hunter-1 (56%, worth 3.67), while sabre-2, behind the ruin, could have stepped 2″
// to a place with no danger and 0.56 expected destroyed from there (a gain of 1.49),
// and never fired (Dropzone against greedy, seed 14, battle 36, round 4: drawn 5 to 5,
// the scouts' last shot at beast-2 missing).
//
// So the move of a member that has no part in its squad's best fire, to a place from
// which it has a shot, is worth its gain and the squad's best fire: the squad still
// fires after the move, with that member too, against firing now and losing the shot.
// A member that fires in the squad's best plan from where it stands loses nothing by the
// squad firing first, and keeps what its move allows after the shot (a unit that fired
// may still move as far as its weapons' M&F): its moves keep their gain alone, as does
// a move to a place with no shot. Where the squad's fire would end the move as well
// (moveFirst), the fire is counted there, not twice.
// None of this is in any of the texts: the Shooting chapter says a squad declares and
// shoots together, not in what order a player moves and fires.

// squadFirst adds to each strong move option of a squad's member that has no part in the
// squad's best fire option, to a place with a shot, the value of that fire option (see
// above).
func (p *Player) squadFirst(v *view, fire, moves []option) {
	if p.Policy.Level != Strong || len(fire) == 0 || len(moves) == 0 {
		return
	}
	best := bestFire(fire)
	for i := range moves {
		m := &moves[i]
		f, ok := best[m.actor]
		unit, _ := m.action["unit"].(string)
		if !ok || unit == "" || unit == m.actor || !m.shotThere || p.endsMove[m.actor] || declares(f, unit) {
			continue // a unit that is its own actor, a place with no shot, a member that fires now
		}
		m.value += f.value
		m.why += "; before its squad fires, which would leave it no shot"
	}
}

// declares reports whether unit declares a target in fire option f (a Dropzone squad's
// shooting: its declarations, each naming its unit). Declarations it cannot read count
// as the unit's, so that its move is not credited with a fire it may take part in.
func declares(f option, unit string) bool {
	raw, err := json.Marshal(f.action["declarations"])
	if err != nil {
		return true
	}
	var decl []struct {
		Unit string `json:"unit"`
	}
	if json.Unmarshal(raw, &decl) != nil {
		return true
	}
	for _, d := range decl {
		if d.Unit == unit {
			return true
		}
	}
	return false
}
