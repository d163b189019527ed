package http

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/volley-wargames/volley"
	"github.com/volley-wargames/volley/rules"
	"github.com/volley-wargames/volley/scenario"
)

// A table editor builds a scenario piece by piece and wants to know, as it goes, what is
// wrong with it and where, before any battle is created: POST /api/check is `volley
// check` over the API. It also answers the document as JSON, the value the scenario's
// schema describes, so that a page with no YAML parser can edit a starter it was given
// as YAML (GET /api/new/{system}).

// checked is the answer to POST /api/check of a scenario that loads.
type checked struct {
	Ruleset string `json:"ruleset"`
	// Dice is who would roll the battle's dice: "server" or "players".
	Dice string `json:"dice"`
	// Sides are the sides of its units, in the order they first appear, and Units their
	// count.
	Sides []string `json:"sides"`
	Units int      `json:"units"`
	// Document is the scenario as JSON (scenario.JSON): every key as written.
	Document json.RawMessage `json:"document"`
}

// check answers POST /api/check: 200 with what the scenario holds, or the errors a new
// battle from it would be refused with (400, every one with its line and column). It
// needs no token and stores nothing; it is priced as a read, and a large scenario waits
// for heavy work as a new battle does.
func (s *Server) check(w http.ResponseWriter, r *http.Request) {
	body, err := s.allowBody(w, r, false)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	turn := s.work
	if len(body) > s.limits.LightBytes {
		turn = s.heavyTurn
	}
	if err := turn(r.Context()); err != nil {
		s.fail(w, r, err)
		return
	}
	doc, err := scenario.Parse("body", body)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	rs, battle, _, err := rules.Open(doc)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	c := checked{Ruleset: rs.Name(), Dice: rolledBy(volley.HandRolled(doc)), Sides: []string{}}
	for _, u := range battle.State().Units {
		c.Units++
		if !slices.Contains(c.Sides, u.Side) {
			c.Sides = append(c.Sides, u.Side)
		}
	}
	if len(c.Sides) == 0 {
		s.fail(w, r, volley.Errorf(volley.EINVALID, "the scenario has no units, so no side could act"))
		return
	}
	if c.Document, err = scenario.JSON("body", body); err != nil {
		s.fail(w, r, volley.Errorf(volley.EINVALID, "%v", err))
		return
	}
	writeJSON(w, http.StatusOK, c)
}

// starter answers GET /api/new/{system}: the small commented scenario `volley new SYSTEM`
// prints, for the editor to start a table from.
func (s *Server) starter(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("system")
	if _, ok := rules.Lookup(name); !ok {
		s.fail(w, r, &volley.Error{Code: volley.ENOTFOUND, Message: "no rule system " + strconv.Quote(name) + " (known: " + strings.Join(rules.Names(), ", ") + ")" + scenario.Hint(name, rules.Names()), Field: "system"})
		return
	}
	s.writeYAML(w, r, s.Starters, name+".yaml", s.Starters != nil,
		volley.Errorf(volley.ENOTFOUND, "this server has no starter for %s", name))
}
