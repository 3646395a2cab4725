// A match's events as sentences a person reads (docs/api.md, "Match events"): the table's log.

import { cardName, suitName } from "./cards.js";
import { ordinal, plural } from "./dom.js";

/** @typedef {import("../../types/api").MatchEvent} MatchEvent */
/** @typedef {(seat: number | null | undefined) => string} SeatName */

/** @type {Record<string, string>} */
const DRAW_REASONS = {
  draw: "",
  pick_up: " (the pick-up)",
  last_card: " (no “last card” said)",
  cover: " (the queen was not covered)",
  blunder: " (an illegal play)",
};

/** @type {Record<string, string>} */
const HAND_END_REASONS = {
  grid_empty: "the grid is empty",
  unreachable: "no piece can reach a card",
  unbeatable: "the leading hand cannot be beaten",
  agreed: "the players agreed",
};

/** @type {Record<string, string>} */
const CATEGORIES = {
  nothing: "no cards",
  high_card: "a high card",
  pair: "a pair",
  two_pair: "two pairs",
  three_of_a_kind: "three of a kind",
  straight: "a straight",
  flush: "a flush",
  full_house: "a full house",
  four_of_a_kind: "four of a kind",
  straight_flush: "a straight flush",
};

/**
 * "a flush" for `flush`.
 *
 * @param {string} category
 */
export function categoryName(category) {
  return CATEGORIES[category] ?? category.replaceAll("_", " ");
}

/** @param {number[]} square */
export function squareName(square) {
  return `row ${square[0] + 1}, column ${square[1] + 1}`;
}

/** @param {string[]} codes */
function cardList(codes) {
  return codes.map(cardName).join(", ");
}

/**
 * One event as a sentence, or null for events that add nothing a person needs (another seat's
 * dealt hand).
 *
 * @param {MatchEvent} event
 * @param {SeatName} name
 * @param {number | null} mySeat
 * @returns {string | null}
 */
export function describe(event, name, mySeat) {
  const who = name(event.seat);
  switch (event.type) {
    case "deal": {
      const data = event.data;
      if ("starter" in data) {
        return `Deal ${data.deal} begins: ${name(data.first)} plays first; the starter is the ${cardName(data.starter)}.`;
      }
      return `Hand ${data.hand} begins: ${name(data.first_mover)} moves first.`;
    }
    case "hand":
      if (event.seat === mySeat && event.data.cards) {
        return `You are dealt ${cardList(event.data.cards)}.`;
      }
      return null;
    case "play":
      return `${who} plays the ${cardName(event.data.card)}.`;
    case "announce":
      return `${who} says “last card”.`;
    case "suit":
      return `${who} names ${suitName(event.data.suit)}.`;
    case "reverse":
      if (event.data.as_skip) {
        return `${who}'s reverse acts as a skip: ${who} plays again.`;
      }
      return `Play changes direction (${event.data.direction === 1 ? "clockwise" : "counter-clockwise"}).`;
    case "skip":
      return `${who} misses ${event.data.turns === 1 ? "a turn" : plural(event.data.turns, "turn")}.`;
    case "penalty":
      switch (event.data.kind) {
        case "stack":
          return `The pick-up grows to ${plural(event.data.draw, "card")}.`;
        case "cancel":
          return `The pick-up is cut by ${event.data.cancelled ?? 0}: ${plural(event.data.draw, "card")} left.`;
        case "last_card":
          return `${who} did not say “last card”: ${plural(event.data.draw, "card")} to draw${event.data.skip ? " and a turn missed" : ""}.`;
        case "blunder":
          return `${who} tried an illegal play (${event.data.reason ?? "refused"}) and draws ${event.data.draw}.`;
        default:
          return `${who}: penalty (${event.data.kind}), ${plural(event.data.draw, "card")}.`;
      }
    case "draw": {
      const reason = DRAW_REASONS[event.data.reason] ?? ` (${event.data.reason})`;
      const cards = event.data.cards ? `: ${cardList(event.data.cards)}` : "";
      return `${who} draws ${plural(event.data.count, "card")}${reason}${cards}.`;
    }
    case "reshuffle":
      return `The discard pile is shuffled into a new stock of ${plural(event.data.count, "card")}.`;
    case "end_turn":
      return `${who} ends the turn.`;
    case "finish":
      return `${who} goes out, ${ordinal(event.data.place)}.`;
    case "deal_end": {
      const data = event.data;
      const how = data.blocked ? "the deal is blocked; " : "";
      return `Deal ${data.deal} is over: ${how}${name(data.winner)} wins it, scoring ${data.points[data.winner] ?? 0}.`;
    }
    case "move": {
      const data = event.data;
      const piece = data.piece === data.seat ? "" : ` ${name(data.piece)}'s piece`;
      const taken = data.card ? `, taking the ${cardName(data.card)}` : " to an empty square";
      return `${name(data.seat)} moves${piece} to ${squareName(data.to)}${taken}.`;
    }
    case "pass":
      return `${name(event.data.seat)} cannot move${event.data.card ? ` and takes the ${cardName(event.data.card)}` : " and passes"}.`;
    case "ally":
      return `${name(event.data.chooser)} allies with ${name(event.data.chosen)}.`;
    case "propose_end":
      return `${name(event.data.seat)} proposes to end the hand.`;
    case "consent_asked":
      return `${name(event.data.seat)} is asked to agree to end the hand.`;
    case "decline_end":
      return `${name(event.data.seat)} declines to end the hand.`;
    case "hand_end": {
      const data = event.data;
      const reason = HAND_END_REASONS[data.reason] ?? data.reason;
      if (data.winner === null) {
        return `Hand ${data.hand} is over (${reason}): a tie, nobody scores.`;
      }
      const best = data.best_hands[data.winner];
      return `Hand ${data.hand} is over (${reason}): ${name(data.winner)} wins with ${categoryName(best?.category ?? "")}.`;
    }
    case "match_end": {
      const data = event.data;
      if ("abandoned" in data) {
        return `The match was abandoned${data.reason ? `: ${data.reason}` : ""}.`;
      }
      return `The match is over: ${name(data.winner)} wins.`;
    }
    case "timeout":
      return `${who}'s clock ran out: the default move is played (strike ${event.data.strikes}).`;
    case "bot_takeover":
      return `A ${event.data.strategy} bot takes over ${who}'s seat.`;
    case "resign":
      return event.data.replaced_by
        ? `${who} resigns; a ${event.data.replaced_by} bot plays on.`
        : `${who} resigns; the match is abandoned.`;
    default:
      return null;
  }
}
