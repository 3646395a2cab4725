// "Play again": the same game once more — the same ruleset, house rules, seats, deals or target,
// clock and rating — with the same people invited and the same bots. Built from the finished
// match's view: a new match against the bots when nobody else sat at the table, else a challenge
// (the invitees take the seats after the caller's, the bots the rest: docs/api.md, "Challenges").

/** @typedef {import("../../types/api").View} View */
/** @typedef {import("../../types/api").MatchCreate} MatchCreate */
/** @typedef {import("../../types/api").ChallengeCreate} ChallengeCreate */
/** @typedef {import("../../types/api").Strategy} Strategy */
/** @typedef {import("../../types/api").RulesetName} RulesetName */

/**
 * @typedef {{kind: "match", body: MatchCreate} | {kind: "challenge", body: ChallengeCreate}} Rematch
 */

/**
 * What to post for another game like this one, or null when the caller had no seat in it.
 *
 * @param {View} view
 * @returns {Rematch | null}
 */
export function rematch(view) {
  const mine = view.you?.seat ?? null;
  if (mine === null) {
    return null;
  }
  const others = view.seats.filter((seat) => seat.seat !== mine);
  const invitees = others.flatMap((seat) => (seat.player ? [seat.player] : []));
  // A seat's bot is one of the strategies the server names (a view says it as a string).
  const strategies = others.flatMap((seat) => (!seat.player && seat.bot ? [/** @type {Strategy} */ (seat.bot)] : []));
  const settings = {
    ruleset: /** @type {RulesetName} */ (view.ruleset), // one the server named
    seats: view.seat_count,
    options: view.options ?? {},
    deals: view.deals,
    target: view.target,
    turn_seconds: view.turn_seconds,
    rated: view.rated,
  };
  // The invitees sit after the caller, then the bots (for a match without invitees, the same).
  const bots = strategies.map((strategy, i) => ({ seat: invitees.length + 1 + i, strategy }));
  if (invitees.length === 0) {
    return { kind: "match", body: { ...settings, bots } };
  }
  return { kind: "challenge", body: { ...settings, bots, to: invitees } };
}
