// The table of shedding Switch (every ruleset): the seats with their card counts and
// announcements, the pile with the top card, the suit to follow and what is pending, your hand
// with the legal plays as buttons on the cards, and draw / end turn (docs/api.md, "The shedding
// view").

import { card, cardFace, cardName, suitBadge, suitName, suitSymbol } from "./cards.js";
import { h, ordinal, plural } from "./dom.js";
import { moveButton } from "./moves.js";

/** @typedef {import("../../types/api").SheddingView} SheddingView */
/** @typedef {import("../../types/api").Action} Action */
/** @typedef {import("./moves.js").TableContext} TableContext */
/** @typedef {Extract<Action, {action: "play"}>} PlayMove */

// Card backs drawn for a seat's hand; more are counted, not drawn.
const BACKS_SHOWN = 12;

/**
 * @param {SheddingView} view
 * @param {TableContext} context
 */
export function sheddingBoard(view, context) {
  return h(
    "div",
    { class: "board shedding" },
    seatList(view, context),
    pile(view, context),
    context.mySeat === null || view.you === null ? null : yourHand(view, context),
  );
}

/**
 * @param {SheddingView} view
 * @param {TableContext} context
 */
function seatList(view, context) {
  return h(
    "section",
    { class: "seats", "aria-label": "Seats" },
    h(
      "ol",
      {},
      view.seats.map((seat) => {
        const count = seat.hand_count ?? 0;
        const badges = [
          seat.announced && count > 0 ? h("span", { class: "badge announce" }, "Last card!") : null,
          seat.finished ? h("span", { class: "badge out" }, `Out, ${ordinal(seat.finished)}`) : null,
          seat.skips_owed ? h("span", { class: "badge" }, `Misses ${plural(seat.skips_owed, "turn")}`) : null,
          seat.resigned ? h("span", { class: "badge" }, "Resigned") : null,
        ];
        return h(
          "li",
          {
            class: `seat${view.to_move === seat.seat ? " to-move" : ""}${seat.seat === context.mySeat ? " mine" : ""}`,
            "data-seat": seat.seat,
          },
          h(
            "span",
            { class: "seat-name" },
            context.name(seat.seat),
            seat.seat === context.mySeat ? " (you)" : null,
            view.to_move === seat.seat ? h("span", { class: "visually-hidden" }, ", to play") : null,
          ),
          h(
            "span",
            { class: "backs", "aria-label": plural(count, "card") },
            Array.from({ length: Math.min(count, BACKS_SHOWN) }, () =>
              h("span", { class: "back", "aria-hidden": "true" }),
            ),
            h("span", { class: "count", "aria-hidden": "true" }, String(count)),
          ),
          view.deals > 1 || view.target !== null || (seat.score ?? 0) > 0
            ? h("span", { class: "score" }, plural(seat.score ?? 0, "point"))
            : null,
          badges,
        );
      }),
    ),
  );
}

/**
 * @param {SheddingView} view
 * @param {TableContext} context
 */
function pile(view, context) {
  const top = view.top_card ?? null;
  const suit = view.active_suit ?? null;
  const pending = view.pending;
  const named = top !== null && suit !== null && !top.startsWith("X") && top.slice(-1) !== suit;
  const facts = [
    suit ? h("p", { class: "active-suit" }, "Suit to follow: ", suitBadge(suit), named ? " (named)" : null) : null,
    pending && pending.draw > 0
      ? h(
          "p",
          { class: "pending" },
          `Pick-up waiting: ${plural(pending.draw, "card")}`,
          pending.draw_card ? ` (from the ${cardName(pending.draw_card)})` : null,
          ".",
        )
      : null,
    pending && pending.skip > 0
      ? h(
          "p",
          { class: "pending" },
          `Skips waiting: ${pending.skip}`,
          pending.skip_card ? ` (from the ${cardName(pending.skip_card)})` : null,
          ".",
        )
      : null,
    h(
      "p",
      { class: "counts" },
      `Stock: ${plural(view.stock_count ?? 0, "card")} · Discard pile: ${plural(view.discard_count ?? 0, "card")} · `,
      view.direction === -1 ? "Play goes counter-clockwise ↺" : "Play goes clockwise ↻",
    ),
    h("p", { class: "deal" }, dealLine(view)),
  ];
  const finishOrder = view.finish_order ?? [];
  return h(
    "section",
    { class: "pile", "aria-label": "The pile" },
    h(
      "div",
      { class: "top-card" },
      top === null ? h("span", { class: "none" }, "No card yet") : card(top, "large"),
      h("span", { class: "caption" }, top === null ? "" : `Top card: ${cardName(top)}`),
    ),
    h("div", { class: "facts" }, facts),
    finishOrder.length > 0
      ? h(
          "p",
          { class: "finish-order" },
          "Out so far: ",
          finishOrder.map((seat, i) => `${context.name(seat)} (${ordinal(i + 1)})`).join(", "),
        )
      : null,
  );
}

/** @param {SheddingView} view */
function dealLine(view) {
  if (view.target !== null) {
    return `Deal ${view.deal}; the match goes to ${view.target} points.`;
  }
  return view.deals > 1 ? `Deal ${view.deal} of ${view.deals}.` : `One deal.`;
}

/**
 * @param {SheddingView} view
 * @param {TableContext} context
 */
function yourHand(view, context) {
  const hand = view.you?.hand ?? [];
  const moves = view.legal_moves;
  /** @type {Map<string, PlayMove[]>} */
  const plays = new Map();
  /** @type {Action[]} */
  const others = [];
  for (const move of moves) {
    if (move.action === "play") {
      plays.set(move.card, [...(plays.get(move.card) ?? []), move]);
    } else {
      others.push(move);
    }
  }
  const shown = new Set();
  const cards = hand.map((code) => {
    const choices = shown.has(code) ? [] : (plays.get(code) ?? []);
    shown.add(code);
    return handCard(code, choices, code === view.you?.drawn, context);
  });
  // A play of a card not in the hand cannot happen; offered anyway rather than hidden.
  const stray = [...plays.entries()].filter(([code]) => !hand.includes(code)).flatMap(([, list]) => list);
  return h(
    "section",
    { class: "you", "aria-label": "Your hand" },
    h("h2", {}, "Your hand ", h("span", { class: "count" }, `(${plural(hand.length, "card")})`)),
    turnFacts(view),
    h("div", { class: "hand" }, cards),
    h(
      "div",
      { class: "actions" },
      [...stray, ...others].map((move) => actionButton(move, view, context)),
    ),
  );
}

/** @param {SheddingView} view */
function turnFacts(view) {
  const turn = view.turn;
  if (!turn || view.to_move !== view.you?.seat || view.status !== "active") {
    return null;
  }
  const facts = [
    turn.must_cover ? "Cover the queen: play another card now, or draw one." : null,
    turn.suit_mode ? `You may go on laying ${suitName(turn.suit_mode)}.` : null,
    turn.played > 0
      ? `Played this turn: ${plural(turn.played, "card")}${turn.last_card ? `, the last the ${cardName(turn.last_card)}` : ""}.`
      : null,
    turn.drew > 0 && view.you?.drawn ? `You drew the ${cardName(view.you.drawn)}: you may play it now.` : null,
    turn.last_card_barred ? "You may not play your last card this turn." : null,
  ].filter((fact) => fact !== null);
  return facts.length > 0
    ? h(
        "ul",
        { class: "turn-facts" },
        facts.map((fact) => h("li", {}, fact)),
      )
    : null;
}

/**
 * A card of the hand: itself the button when it has one legal play, with a button per choice
 * (the suit to name, "last card" or not) when it has several, a plain card when it has none.
 *
 * @param {string} code
 * @param {PlayMove[]} choices
 * @param {boolean} drawn
 * @param {TableContext} context
 */
function handCard(code, choices, drawn, context) {
  const extra = drawn ? "drawn" : "";
  if (choices.length === 0) {
    return h("span", { class: `hand-card ${extra}` }, card(code));
  }
  if (choices.length === 1) {
    const [move] = choices;
    return h(
      "span",
      { class: `hand-card playable ${extra}` },
      moveButton(move, playLabel(move), context, cardFace(code), "card-button"),
    );
  }
  return h(
    "span",
    { class: `hand-card playable choices ${extra}`, role: "group", "aria-label": `Ways to play the ${cardName(code)}` },
    card(code),
    h(
      "span",
      { class: "choice-buttons" },
      choices.map((move) => moveButton(move, playLabel(move), context, choiceContent(move), "choice")),
    ),
  );
}

/** @param {PlayMove} move */
function playLabel(move) {
  const parts = [`Play the ${cardName(move.card)}`];
  if (move.suit) {
    parts.push(`name ${suitName(move.suit)}`);
  }
  if (move.announce === "last_card") {
    parts.push("say last card");
  }
  return parts.join(", ");
}

/** @param {PlayMove} move */
function choiceContent(move) {
  const red = move.suit === "D" || move.suit === "H";
  return [
    move.suit ? h("span", { class: red ? "red" : "black", "aria-hidden": "true" }, suitSymbol(move.suit)) : "Play",
    move.announce === "last_card" ? h("span", { class: "say" }, " + last card") : null,
  ];
}

/**
 * Draw, end the turn, or any other action the server offers.
 *
 * @param {Action} move
 * @param {SheddingView} view
 * @param {TableContext} context
 */
function actionButton(move, view, context) {
  const pending = view.pending;
  const turn = view.turn;
  switch (move.action) {
    case "draw": {
      let label = "Draw";
      if (pending && pending.draw > 0) {
        label = `Pick up ${plural(pending.draw, "card")}`;
      } else if (turn?.must_cover) {
        label = "Draw (the queen stays uncovered)";
      }
      return moveButton(move, label, context);
    }
    case "end_turn": {
      let label = "End turn";
      if (pending && pending.skip > 0 && turn?.played === 0) {
        label = "Accept the skip";
      } else if (view.you?.drawn) {
        label = "Keep the card, end turn";
      }
      return moveButton(move, label, context);
    }
    case "play":
      return moveButton(move, playLabel(move), context);
    default:
      return moveButton(move, move.action.replaceAll("_", " "), context);
  }
}
