package opponent

// EnemyActsAfter is enemyActsAfter, for the package's outside tests (which may load the
// rule systems; its own may not, rules importing it).
var EnemyActsAfter = enemyActsAfter
