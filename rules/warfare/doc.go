// Package warfare implements missile fire in the 'Warfare' rules, in both of the forms
// the seed article discusses.
//
//   - The existing system: every eligible firing stand rolls a d10 and hits on 6+ at
//     close range, 8+ at effective and 10+ at long, shifted by modifiers; each hit is a
//     casualty.
//   - The alternate system: a base missile factor of 5, 3 or 1, plus a random factor
//     (half the firer's d6 less half the target player's d6, rounded up), plus the same
//     modifiers with their signs reversed, times the stands firing. The result in tens
//     is whole casualties, and one d10 turns the remainder into one more.
//
// Both track ammunition: Low on Missiles, then Out. The article's question, which
// system is less swingy, is answered by exact odds and by volley compare.
//
// The rules come from Kevin Boylan's article "Alternate Missile Fire System" for the
// Warfare rules. Every number the article prints is a named constant in rules.go. Range distances and the list of
// named modifiers are data, because the article prints only some of them:
// examples/warfare/sample-tables.yaml is a sample to replace with one's own book.
// Readings are in docs/rules/warfare.md. The package registers itself as "warfare".
package warfare
