// A match's events as sentences a person reads (docs/api.md, "Match events"): the table's log and
// the replay's.

import { cardCount, cardName, suitName, theCard } from "./cards.js";
import { gettext, interpolate, ordinal } from "./i18n.js";
import { botName } from "./moves.js";

/** @typedef {import("../../types/api").MatchEvent} MatchEvent */
/** @typedef {(seat: number | null | undefined) => string} SeatName */

/** @type {Record<string, () => string>} */
const HAND_END_REASONS = {
  grid_empty: () => gettext("the grid is empty"),
  unreachable: () => gettext("no piece can reach a card"),
  unbeatable: () => gettext("the leading hand cannot be beaten"),
  agreed: () => gettext("the players agreed"),
};

/** @type {Record<string, () => string>} */
const CATEGORIES = {
  nothing: () => gettext("no cards"),
  high_card: () => gettext("a high card"),
  pair: () => gettext("a pair"),
  two_pair: () => gettext("two pairs"),
  three_of_a_kind: () => gettext("three of a kind"),
  straight: () => gettext("a straight"),
  flush: () => gettext("a flush"),
  full_house: () => gettext("a full house"),
  four_of_a_kind: () => gettext("four of a kind"),
  straight_flush: () => gettext("a straight flush"),
};

/**
 * "a flush" for `flush`.
 *
 * @param {string} category
 */
export function categoryName(category) {
  return CATEGORIES[category]?.() ?? category.replaceAll("_", " ");
}

/** @param {number[]} square */
export function squareName(square) {
  return interpolate(gettext("row %(row)s, column %(column)s"), { row: square[0] + 1, column: square[1] + 1 });
}

/** @param {string[]} codes */
function cardList(codes) {
  return codes.map(cardName).join(", ");
}

/**
 * Why a seat draws: "draws 2 cards (the pick-up)".
 *
 * @param {string} who
 * @param {number} count
 * @param {string} reason
 */
function draws(who, count, reason) {
  const values = { player: who, cards: cardCount(count) };
  switch (reason) {
    case "draw":
      return interpolate(gettext("%(player)s draws %(cards)s"), values);
    case "pick_up":
      return interpolate(gettext("%(player)s draws %(cards)s (the pick-up)"), values);
    case "last_card":
      return interpolate(gettext("%(player)s draws %(cards)s (no “last card” said)"), values);
    case "cover":
      return interpolate(gettext("%(player)s draws %(cards)s (the queen was not covered)"), values);
    case "blunder":
      return interpolate(gettext("%(player)s draws %(cards)s (an illegal play)"), values);
    default:
      return `${interpolate(gettext("%(player)s draws %(cards)s"), values)} (${reason})`;
  }
}

/**
 * One event as a sentence, or null for events that add nothing a person needs (another seat's
 * dealt hand).
 *
 * @param {MatchEvent} event
 * @param {SeatName} name
 * @param {number | null} mySeat the seat whose dealt hand is told (null: none)
 * @returns {string | null}
 */
export function describe(event, name, mySeat) {
  const who = name(event.seat);
  switch (event.type) {
    case "deal": {
      const data = event.data;
      if ("starter" in data) {
        return interpolate(gettext("Deal %(deal)s begins: %(player)s plays first; the starter is %(card)s."), {
          deal: data.deal,
          player: name(data.first),
          card: theCard(data.starter),
        });
      }
      return interpolate(gettext("Hand %(hand)s begins: %(player)s moves first."), {
        hand: data.hand,
        player: name(data.first_mover),
      });
    }
    case "hand":
      if (event.seat === mySeat && event.data.cards) {
        return interpolate(gettext("You are dealt %(cards)s."), { cards: cardList(event.data.cards) });
      }
      return null;
    case "play":
      return interpolate(gettext("%(player)s plays %(card)s."), { player: who, card: theCard(event.data.card) });
    case "announce":
      return interpolate(gettext("%(player)s says “last card”."), { player: who });
    case "suit":
      return interpolate(gettext("%(player)s names %(suit)s."), { player: who, suit: suitName(event.data.suit) });
    case "reverse":
      if (event.data.as_skip) {
        return interpolate(gettext("%(player)s's reverse acts as a skip: %(player)s plays again."), { player: who });
      }
      return event.data.direction === 1
        ? gettext("Play changes direction (clockwise).")
        : gettext("Play changes direction (counter-clockwise).");
    case "skip":
      return event.data.turns === 1
        ? interpolate(gettext("%(player)s misses a turn."), { player: who })
        : interpolate(gettext("%(player)s misses %(count)s turns."), { player: who, count: event.data.turns });
    case "penalty":
      switch (event.data.kind) {
        case "stack":
          return interpolate(gettext("The pick-up grows to %(cards)s."), { cards: cardCount(event.data.draw) });
        case "cancel":
          return interpolate(gettext("The pick-up is cut by %(cut)s: %(cards)s left."), {
            cut: event.data.cancelled ?? 0,
            cards: cardCount(event.data.draw),
          });
        case "last_card":
          return interpolate(
            event.data.skip
              ? gettext("%(player)s did not say “last card”: %(cards)s to draw and a turn missed.")
              : gettext("%(player)s did not say “last card”: %(cards)s to draw."),
            { player: who, cards: cardCount(event.data.draw) },
          );
        case "blunder":
          return interpolate(gettext("%(player)s tried an illegal play (%(reason)s) and draws %(count)s."), {
            player: who,
            reason: event.data.reason ?? gettext("refused"),
            count: event.data.draw,
          });
        default:
          return interpolate(gettext("%(player)s: penalty (%(kind)s), %(cards)s."), {
            player: who,
            kind: event.data.kind,
            cards: cardCount(event.data.draw),
          });
      }
    case "draw": {
      const drawn = draws(who, event.data.count, event.data.reason);
      return event.data.cards ? `${drawn}: ${cardList(event.data.cards)}.` : `${drawn}.`;
    }
    case "reshuffle":
      return interpolate(gettext("The discard pile is shuffled into a new stock of %(cards)s."), {
        cards: cardCount(event.data.count),
      });
    case "end_turn":
      return interpolate(gettext("%(player)s ends the turn."), { player: who });
    case "finish":
      return interpolate(gettext("%(player)s goes out, %(place)s."), { player: who, place: ordinal(event.data.place) });
    case "deal_end": {
      const data = event.data;
      return interpolate(
        data.blocked
          ? gettext("Deal %(deal)s is over: the deal is blocked; %(player)s wins it, scoring %(points)s.")
          : gettext("Deal %(deal)s is over: %(player)s wins it, scoring %(points)s."),
        { deal: data.deal, player: name(data.winner), points: data.points[data.winner] ?? 0 },
      );
    }
    case "move": {
      const data = event.data;
      const values = {
        player: name(data.seat),
        owner: name(data.piece),
        square: squareName(data.to),
        card: data.card ? theCard(data.card) : "",
      };
      if (data.piece === data.seat) {
        return interpolate(
          data.card
            ? gettext("%(player)s moves to %(square)s, taking %(card)s.")
            : gettext("%(player)s moves to %(square)s, an empty square."),
          values,
        );
      }
      return interpolate(
        data.card
          ? gettext("%(player)s moves %(owner)s's piece to %(square)s, taking %(card)s.")
          : gettext("%(player)s moves %(owner)s's piece to %(square)s, an empty square."),
        values,
      );
    }
    case "pass":
      return event.data.card
        ? interpolate(gettext("%(player)s cannot move and takes %(card)s."), {
            player: name(event.data.seat),
            card: theCard(event.data.card),
          })
        : interpolate(gettext("%(player)s cannot move and passes."), { player: name(event.data.seat) });
    case "ally":
      return interpolate(gettext("%(chooser)s allies with %(chosen)s."), {
        chooser: name(event.data.chooser),
        chosen: name(event.data.chosen),
      });
    case "propose_end":
      return interpolate(gettext("%(player)s proposes to end the hand."), { player: name(event.data.seat) });
    case "consent_asked":
      return interpolate(gettext("%(player)s is asked to agree to end the hand."), { player: name(event.data.seat) });
    case "decline_end":
      return interpolate(gettext("%(player)s declines to end the hand."), { player: name(event.data.seat) });
    case "hand_end": {
      const data = event.data;
      const reason = HAND_END_REASONS[data.reason]?.() ?? data.reason;
      if (data.winner === null) {
        return interpolate(gettext("Hand %(hand)s is over (%(reason)s): a tie, nobody scores."), {
          hand: data.hand,
          reason,
        });
      }
      const best = data.best_hands[data.winner];
      return interpolate(gettext("Hand %(hand)s is over (%(reason)s): %(player)s wins with %(category)s."), {
        hand: data.hand,
        reason,
        player: name(data.winner),
        category: categoryName(best?.category ?? ""),
      });
    }
    case "match_end": {
      const data = event.data;
      if ("abandoned" in data) {
        return data.reason
          ? interpolate(gettext("The match was abandoned: %(reason)s."), { reason: data.reason })
          : gettext("The match was abandoned.");
      }
      return interpolate(gettext("The match is over: %(player)s wins."), { player: name(data.winner) });
    }
    case "timeout":
      return interpolate(gettext("%(player)s's clock ran out: the default move is played (strike %(strikes)s)."), {
        player: who,
        strikes: event.data.strikes,
      });
    case "bot_takeover":
      return interpolate(gettext("%(bot)s takes over %(player)s's seat."), {
        bot: botName(event.data.strategy),
        player: who,
      });
    case "resign":
      return event.data.replaced_by
        ? interpolate(gettext("%(player)s resigns; %(bot)s plays on."), {
            player: who,
            bot: botName(event.data.replaced_by),
          })
        : interpolate(gettext("%(player)s resigns; the match is abandoned."), { player: who });
    default:
      return null;
  }
}
