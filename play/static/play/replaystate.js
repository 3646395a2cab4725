// A finished match step by step, from its public record (who sat where, the result) and its event
// log, which the API reveals whole once the match is over (every dealt hand and drawn card:
// docs/api.md, "Hidden information"). Each step is an action with what it caused (a play with the
// suit it names, the skip and the end of the deal that follow); each position is the table after
// it, every hand face up. Pure: node --test checks it.

/** @typedef {import("../../types/api").MatchEvent} MatchEvent */

/**
 * The table of shedding Switch after a step.
 *
 * @typedef {object} SheddingPosition
 * @property {"shedding"} game
 * @property {number} deal
 * @property {(string | null)[][]} hands by seat; null for a card not revealed
 * @property {string | null} top
 * @property {string | null} suit the suit to follow
 * @property {number} direction
 * @property {number} stock
 * @property {number} discards
 * @property {number} pickUp a pick-up waiting
 * @property {number[]} scores the match's totals so far
 */

/**
 * The table of Abbott's Switch after a step.
 *
 * @typedef {object} AbbottPosition
 * @property {"abbott"} game
 * @property {number} deal the hand
 * @property {(string | null)[][]} grid
 * @property {number[][]} pieces
 * @property {string[][]} cards each seat's cards taken this hand
 * @property {number[]} scores the running totals
 */

/** @typedef {SheddingPosition | AbbottPosition} Position */

/**
 * @typedef {object} Step
 * @property {MatchEvent[]} events the action's event first, then what it caused
 * @property {number} deal the deal (hand) it belongs to
 * @property {Position} position the table after it
 */

// Events that begin a step; the others (the suit named, a skip served, a penalty, the end of a
// deal…) belong to the step before them.
const ACTIONS = new Set([
  "deal",
  "play",
  "draw",
  "end_turn",
  "move",
  "pass",
  "ally",
  "propose_end",
  "decline_end",
  "resign",
  "timeout",
  "bot_takeover",
  "match_end",
]);

/**
 * @param {string} game "shedding" or "abbott"
 * @param {number} seats
 * @returns {Position}
 */
function emptyTable(game, seats) {
  const none = () => Array.from({ length: seats }, () => []);
  const scores = Array.from({ length: seats }, () => 0);
  if (game === "abbott") {
    return { game: "abbott", deal: 0, grid: [], pieces: [], cards: none(), scores };
  }
  return {
    game: "shedding",
    deal: 0,
    hands: none(),
    top: null,
    suit: null,
    direction: 1,
    stock: 0,
    discards: 0,
    pickUp: 0,
    scores,
  };
}

/**
 * The table after one more event (a new object; the one before is kept for stepping back).
 *
 * @param {Position} table
 * @param {MatchEvent} event
 * @returns {Position}
 */
export function apply(table, event) {
  return table.game === "abbott" ? applyAbbott(table, event) : applyShedding(table, event);
}

/**
 * @param {SheddingPosition} before
 * @param {MatchEvent} event
 * @returns {SheddingPosition}
 */
function applyShedding(before, event) {
  const table = { ...before, hands: before.hands.map((hand) => [...hand]), scores: [...before.scores] };
  const seat = event.seat ?? -1;
  switch (event.type) {
    case "deal":
      if ("starter" in event.data) {
        const data = event.data;
        return {
          ...table,
          deal: data.deal,
          hands: table.hands.map(() => []),
          top: data.starter,
          suit: data.active_suit ?? null,
          direction: data.direction,
          stock: data.stock_count,
          discards: 1,
          pickUp: 0,
        };
      }
      return table;
    case "hand":
      table.hands[seat] = event.data.cards ?? Array.from({ length: event.data.count }, () => null);
      return table;
    case "play": {
      const hand = table.hands[seat] ?? [];
      const at = hand.indexOf(event.data.card);
      hand.splice(at >= 0 ? at : hand.indexOf(null), 1);
      const card = event.data.card;
      return {
        ...table,
        top: card,
        suit: card.startsWith("X") ? table.suit : card.slice(-1),
        discards: table.discards + 1,
      };
    }
    case "suit":
      return { ...table, suit: event.data.suit };
    case "reverse":
      return event.data.as_skip ? table : { ...table, direction: event.data.direction };
    case "penalty":
      return event.data.kind === "stack" || event.data.kind === "cancel"
        ? { ...table, pickUp: event.data.draw }
        : table;
    case "draw": {
      const count = event.data.count;
      table.hands[seat] = [
        ...(table.hands[seat] ?? []),
        ...(event.data.cards ?? Array.from({ length: count }, () => null)),
      ];
      return {
        ...table,
        stock: Math.max(0, table.stock - count),
        pickUp: event.data.reason === "pick_up" ? 0 : table.pickUp,
      };
    }
    case "reshuffle":
      return { ...table, stock: event.data.count, discards: 1 };
    case "deal_end":
      return { ...table, scores: table.scores.map((score, i) => score + (event.data.points[i] ?? 0)) };
    default:
      return table;
  }
}

/**
 * @param {AbbottPosition} before
 * @param {MatchEvent} event
 * @returns {AbbottPosition}
 */
function applyAbbott(before, event) {
  switch (event.type) {
    case "deal":
      if ("grid" in event.data) {
        return {
          ...before,
          deal: event.data.hand,
          grid: event.data.grid.map((row) => [...row]),
          pieces: event.data.pieces.map((square) => [...square]),
          cards: before.cards.map(() => []),
        };
      }
      return before;
    case "move":
    case "pass": {
      const data = event.data;
      const grid = before.grid.map((row) => [...row]);
      const pieces = before.pieces.map((square) => [...square]);
      const cards = before.cards.map((taken) => [...taken]);
      if ("to" in data) {
        pieces[data.piece] = [...data.to];
      }
      if (data.card) {
        cards[data.piece]?.push(data.card);
        const [row, column] = pieces[data.piece] ?? [-1, -1];
        if (grid[row]?.[column] === data.card) {
          grid[row][column] = null;
        }
      }
      return { ...before, grid, pieces, cards };
    }
    case "hand_end":
      return { ...before, scores: [...event.data.totals] };
    default:
      return before;
  }
}

/**
 * The match's steps, oldest first.
 *
 * @param {{game: string, seats: number}} match
 * @param {MatchEvent[]} events the whole log, in any order
 * @returns {Step[]}
 */
export function steps(match, events) {
  /** @type {Step[]} */
  const found = [];
  let table = emptyTable(match.game, match.seats);
  for (const event of [...events].sort((a, b) => a.seq - b.seq)) {
    table = apply(table, event);
    const last = found.at(-1);
    if (ACTIONS.has(event.type) || last === undefined) {
      found.push({ events: [event], deal: table.deal, position: table });
    } else {
      last.events.push(event);
      last.position = table;
    }
  }
  return found;
}

/**
 * The first step of each deal (hand): where "jump to a deal" goes.
 *
 * @param {Step[]} all
 * @returns {Map<number, number>} deal → step index
 */
export function dealStarts(all) {
  /** @type {Map<number, number>} */
  const starts = new Map();
  all.forEach((step, index) => {
    if (!starts.has(step.deal)) {
      starts.set(step.deal, index);
    }
  });
  return starts;
}
