package scenario

import (
	"fmt"
	"strconv"
	"strings"
)

// roll is a dice roll needed, written "3+": a ScalarDecoder for the tests.
type roll int

func (r *roll) DecodeScalar(s Scalar) error {
	n, err := strconv.Atoi(strings.TrimSuffix(s.Text, "+"))
	if s.Kind != KindString || !strings.HasSuffix(s.Text, "+") || err != nil || n < 2 || n > 6 {
		return fmt.Errorf("want a roll from 2+ to 6+, got %q", s.Text)
	}
	*r = roll(n)
	return nil
}

type weapon struct {
	Name   string  `yaml:"name,required"`
	Range  Length  `yaml:"range"`
	Shots  int     `yaml:"shots"`
	AP     int8    `yaml:"ap"`
	Damage float64 `yaml:"damage"`
	Hit    roll    `yaml:"hit"`
}

type unit struct {
	Name    string            `yaml:"name,required"`
	Models  uint8             `yaml:"models"`
	At      Point             `yaml:"at"`
	Weapons []weapon          `yaml:"weapons"`
	Armour  float32           `yaml:"armour"`
	Tags    map[string]string `yaml:"tags"`
	Facing  [2]int            `yaml:"facing"`
	Elite   bool              `yaml:"elite"`
	Leader  *unit             `yaml:"leader"`
	Notes   any               `yaml:"notes"`
	Secret  string            `yaml:"-"`
}

type table struct {
	Width Length
	Depth Length
}

type testScenario struct {
	Header
	Table   table             `yaml:"table"`
	Units   []unit            `yaml:"units"`
	Armoury map[string]weapon `yaml:"armoury"`
	Extra   any               `yaml:"extra"`
	Action  *struct {
		Attacker string `yaml:"attacker,required"`
		Target   string `yaml:"target,required"`
	} `yaml:"action"`
}
