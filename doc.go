// Package volley is a ranged-combat engine for wargames.
//
// The root package holds the domain types every rule system shares (Aim, Odds, Outcome,
// Step, Error) and the two interfaces a rule system implements: Ruleset and Battle.
// Rule systems live under rules/, one package each, and register themselves from init.
package volley
