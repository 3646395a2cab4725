// Views and events as the API sends them, cut to what the client reads: for the tests of the pure
// modules (node --test).

/**
 * A shedding view: seat 0 is "alice" (the caller unless `you` is null), seat 1 a random bot.
 *
 * @param {Record<string, unknown>} [changes]
 * @returns {any}
 */
export function sheddingView(changes = {}) {
  return {
    id: 7,
    ruleset: "switch",
    game: "shedding",
    options: {},
    status: "active",
    version: 3,
    deal: 1,
    seat_count: 2,
    deals: 1,
    target: null,
    turn_seconds: null,
    rated: false,
    practice: false,
    turn_deadline: null,
    created_by: "alice",
    created_by_bot_account: false,
    shuffle_commitment: null,
    to_move: 0,
    you: { seat: 0, hand: ["7H", "JC"], drawn: null },
    legal_moves: [{ action: "play", card: "7H" }, { action: "draw" }],
    result: null,
    seats: [
      { seat: 0, player: "alice", bot_account: false, bot: null, resigned: false, hand_count: 2 },
      { seat: 1, player: null, bot_account: false, bot: "random", resigned: false, hand_count: 5 },
    ],
    top_card: "9H",
    active_suit: "H",
    pending: { draw: 0, skip: 0, draw_card: null, skip_card: null },
    stock_count: 30,
    discard_count: 1,
    direction: 1,
    ...changes,
  };
}

/**
 * A match event.
 *
 * @param {number} seq
 * @param {string} type
 * @param {number | null} seat
 * @param {Record<string, unknown>} [data]
 * @returns {any}
 */
export function event(seq, type, seat, data = {}) {
  return { seq, at: "2026-11-28T12:00:00+00:00", type, seat, data };
}
