// Package opponent plays a side of a battle: whole turns, in every rule system, with the
// exact machinery volley offers a player — where each unit could stand (position maps),
// what each squad, unit or battery could fire (the advisor), the odds of every answer —
// and it says why it does what it does.
//
// It knows no game. What a side may do now it reads from the battle's views and from the
// rules themselves: every candidate action is tried on a copy of the battle (Forker)
// before it is weighed, so that nothing the rules refuse is ever sent.
//
// # How a turn is planned
//
// Each decision weighs every actor (a squad, unit or battery) that may act now:
//
//   - a move of each of its units, to the best points of the unit's position map, each
//     point scored by what could be destroyed from there (exact), the chance of being
//     destroyed there (the danger layer, weighed by the style: bold counts it little,
//     cautious much) and the objectives within reach, against the point where it stands;
//   - each of its best fire plans (the advisor, exact), scored by the points of the
//     enemies it is likely to destroy.
//
// Scores are in the scenario's points (its end: section): destroying a unit worth 3 is
// worth three times one worth 1, and a target that an earlier shot has probably
// destroyed is worth less (the advisor works from the battle as the dice left it).
//
// The side acts in the order of value: the actor with the most to gain first, and it
// finishes its activation (its moves, then its fire) before another begins, since in
// several systems a squad's activation ends when another's begins. After every roll the
// rest of the turn is planned again from the battle as it now stands: the chance nodes
// of fire are resolved by the dice themselves, each branch weighed exactly before the
// roll and the plan recomputed after it, rather than sampled. When nothing left is worth
// doing, the side ends its phase or turn.
//
// Levels are policies: Strong plays as above; Teaching plays like a reasonable person —
// one unit at a time in the order the scenario lists them, a shorter look at fewer
// places, half its move at most, half the weight on danger it should have, the
// objectives thought of late (from the round it must set off in to reach one by the end
// at its half step), and now and then the second or third
// of its best choices, or a shot at the nearest target rather than the best (drawn from
// the battle's own stream): the plausible mistakes of a player who does not count
// everything (Teaching's doc); Greedy (each unit closes on the nearest enemy until in
// range, then fires its single best shot) and Random (uniform over the actions it may
// take) are the baselines it is measured against (docs/opponent.md).
package opponent
