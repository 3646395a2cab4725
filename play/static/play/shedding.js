// The table of shedding Switch (every ruleset): the seats with their card counts and
// announcements, the pile with the top card, the suit to follow and what is pending, your hand
// with the legal plays as buttons on the cards, and draw / end turn (docs/api.md, "The shedding
// view").

import { card, cardCount, cardFace, cardName, suitBadge, suitName, suitSymbol, theCard } from "./cards.js";
import { counted, gettext, interpolate, ngettext, ordinal } from "./i18n.js";
import { moveButton, seatLink } from "./moves.js";
import { h } from "./vendor/preact.mjs";

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
 * A seat's hand face down: its backs (a pick-up to come shown as more), named by its count.
 *
 * @param {number} count
 * @param {string} [flip] its key for motion.js
 */
export function backs(count, flip = "") {
  return h(
    "span",
    { class: "backs", "data-flip": flip || undefined, role: "img", "aria-label": cardCount(count) },
    Array.from({ length: Math.min(count, BACKS_SHOWN) }, (_, i) => h("span", { key: i, class: "back" })),
    h("span", { class: "count" }, String(count)),
  );
}

/**
 * @param {SheddingView} view
 * @param {TableContext} context
 */
function seatList(view, context) {
  return h(
    "section",
    { class: "seats", "aria-label": gettext("Seats") },
    h(
      "ol",
      {},
      view.seats.map((seat) => {
        const count = seat.hand_count ?? 0;
        const badges = [
          seat.announced && count > 0 ? h("span", { class: "badge announce" }, gettext("Last card!")) : null,
          seat.finished
            ? h(
                "span",
                { class: "badge out" },
                interpolate(gettext("Out, %(place)s"), { place: ordinal(seat.finished) }),
              )
            : null,
          seat.skips_owed
            ? h(
                "span",
                { class: "badge" },
                counted(seat.skips_owed, ngettext("Misses %(count)s turn", "Misses %(count)s turns", seat.skips_owed)),
              )
            : null,
          seat.resigned ? h("span", { class: "badge" }, gettext("Resigned")) : null,
        ];
        return h(
          "li",
          {
            key: seat.seat,
            class: `seat${view.to_move === seat.seat ? " to-move" : ""}${seat.seat === context.mySeat ? " mine" : ""}`,
            "data-seat": seat.seat,
          },
          h(
            "span",
            { class: "seat-name" },
            seatLink(seat, context.name(seat.seat)),
            seat.seat === context.mySeat ? ` ${gettext("(you)")}` : null,
            view.to_move === seat.seat ? h("span", { class: "visually-hidden" }, `, ${gettext("to play")}`) : null,
          ),
          backs(count, `seat:${seat.seat}`),
          view.deals > 1 || view.target !== null || (seat.score ?? 0) > 0
            ? h(
                "span",
                { class: "score" },
                counted(seat.score ?? 0, ngettext("%(count)s point", "%(count)s points", seat.score ?? 0)),
              )
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
  const direction = view.direction === -1 ? gettext("Play goes counter-clockwise ↺") : gettext("Play goes clockwise ↻");
  const facts = [
    suit
      ? h(
          "p",
          { class: "active-suit" },
          gettext("Suit to follow:"),
          " ",
          suitBadge(suit),
          named ? ` ${gettext("(named)")}` : null,
        )
      : null,
    pending && pending.draw > 0
      ? h(
          "p",
          { class: "pending" },
          h(
            "span",
            { class: "pickup-stack", "aria-hidden": "true" },
            Array.from({ length: Math.min(pending.draw, BACKS_SHOWN) }, (_, i) => h("span", { key: i, class: "back" })),
          ),
          pending.draw_card
            ? interpolate(gettext("Pick-up waiting: %(cards)s (from %(card)s)."), {
                cards: cardCount(pending.draw),
                card: theCard(pending.draw_card),
              })
            : interpolate(gettext("Pick-up waiting: %(cards)s."), {
                cards: cardCount(pending.draw),
              }),
        )
      : null,
    pending && pending.skip > 0
      ? h(
          "p",
          { class: "pending" },
          pending.skip_card
            ? interpolate(gettext("Skips waiting: %(count)s (from %(card)s)."), {
                count: pending.skip,
                card: theCard(pending.skip_card),
              })
            : interpolate(gettext("Skips waiting: %(count)s."), { count: pending.skip }),
        )
      : null,
    h(
      "p",
      { class: "counts" },
      interpolate(gettext("Stock: %(stock)s · Discard pile: %(discards)s · %(direction)s"), {
        stock: cardCount(view.stock_count ?? 0),
        discards: cardCount(view.discard_count ?? 0),
        direction,
      }),
    ),
    h("p", { class: "deal" }, dealLine(view)),
  ];
  const finishOrder = view.finish_order ?? [];
  return h(
    "section",
    { class: "pile", "aria-label": gettext("The pile") },
    h(
      "div",
      { class: "top-card" },
      h(
        "span",
        { class: "stock", "data-flip": "stock" },
        (view.stock_count ?? 0) > 0 ? h("span", { class: "back" }) : null,
      ),
      top === null
        ? h("span", { class: "none" }, gettext("No card yet"))
        : h(
            "span",
            { key: `top-${view.deal}-${view.discard_count}`, class: "top", "data-flip": `card:${top}` },
            card(top, "large"),
          ),
      h(
        "span",
        { class: "caption" },
        top === null ? "" : interpolate(gettext("Top card: %(card)s"), { card: cardName(top) }),
      ),
    ),
    h("div", { class: "facts" }, facts),
    finishOrder.length > 0
      ? h(
          "p",
          { class: "finish-order" },
          interpolate(gettext("Out so far: %(players)s"), {
            players: finishOrder.map((seat, i) => `${context.name(seat)} (${ordinal(i + 1)})`).join(", "),
          }),
        )
      : null,
  );
}

/** @param {SheddingView} view */
function dealLine(view) {
  if (view.target !== null) {
    return interpolate(gettext("Deal %(deal)s; the match goes to %(target)s points."), {
      deal: view.deal,
      target: view.target,
    });
  }
  return view.deals > 1
    ? interpolate(gettext("Deal %(deal)s of %(deals)s."), { deal: view.deal, deals: view.deals })
    : gettext("One deal.");
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
  /** @type {Map<string, number>} copies of a code seen so far: with two decks a code repeats */
  const seen = new Map();
  const cards = hand.map((code) => {
    const copy = seen.get(code) ?? 0;
    seen.set(code, copy + 1);
    return handCard(code, copy, copy === 0 ? (plays.get(code) ?? []) : [], code === view.you?.drawn, context);
  });
  // A play of a card not in the hand cannot happen; offered anyway rather than hidden.
  const stray = [...plays.entries()].filter(([code]) => !hand.includes(code)).flatMap(([, list]) => list);
  return h(
    "section",
    { class: "you", "aria-label": gettext("Your hand") },
    h("h2", {}, gettext("Your hand"), " ", h("span", { class: "count" }, `(${cardCount(hand.length)})`)),
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
  const drawn = view.you?.drawn ?? null;
  const facts = [
    turn.must_cover ? gettext("Cover the queen: play another card now, or draw one.") : null,
    turn.suit_mode ? interpolate(gettext("You may go on laying %(suit)s."), { suit: suitName(turn.suit_mode) }) : null,
    turn.played > 0
      ? turn.last_card
        ? interpolate(gettext("Played this turn: %(cards)s; the last was %(card)s."), {
            cards: cardCount(turn.played),
            card: theCard(turn.last_card),
          })
        : interpolate(gettext("Played this turn: %(cards)s."), {
            cards: cardCount(turn.played),
          })
      : null,
    turn.drew > 0 && drawn
      ? interpolate(gettext("You drew %(card)s: you may play it now."), { card: theCard(drawn) })
      : null,
    turn.last_card_barred ? gettext("You may not play your last card this turn.") : null,
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
 * @param {number} copy which copy of the code (two decks)
 * @param {PlayMove[]} choices
 * @param {boolean} drawn
 * @param {TableContext} context
 */
function handCard(code, copy, choices, drawn, context) {
  const extra = drawn ? "drawn" : "";
  const key = `${code}.${copy}`;
  const flip = copy === 0 ? `card:${code}` : `card:${key}`;
  if (choices.length === 0) {
    return h("span", { key, class: `hand-card ${extra}`, "data-flip": flip }, card(code));
  }
  if (choices.length === 1) {
    const [move] = choices;
    return h(
      "span",
      { key, class: `hand-card playable ${extra}`, "data-flip": flip },
      moveButton(move, playLabel(move), context, cardFace(code), "card-button"),
    );
  }
  return h(
    "span",
    {
      key,
      class: `hand-card playable choices ${extra}`,
      "data-flip": flip,
      role: "group",
      "aria-label": interpolate(gettext("Ways to play %(card)s"), { card: theCard(code) }),
    },
    card(code),
    h(
      "span",
      { class: "choice-buttons" },
      choices.map((move) => moveButton(move, playLabel(move), context, choicePicture(move), "choice")),
    ),
  );
}

/** @param {PlayMove} move */
function playLabel(move) {
  const card = theCard(move.card);
  if (move.suit && move.announce === "last_card") {
    return interpolate(gettext("Play %(card)s, name %(suit)s, say last card"), { card, suit: suitName(move.suit) });
  }
  if (move.suit) {
    return interpolate(gettext("Play %(card)s, name %(suit)s"), { card, suit: suitName(move.suit) });
  }
  if (move.announce === "last_card") {
    return interpolate(gettext("Play %(card)s, say last card"), { card });
  }
  return interpolate(gettext("Play %(card)s"), { card });
}

/**
 * What a choice's button shows: the suit it names, "+ last card".
 *
 * @param {PlayMove} move
 */
function choicePicture(move) {
  const red = move.suit === "D" || move.suit === "H";
  return h(
    "span",
    { "aria-hidden": "true" },
    move.suit ? h("span", { class: red ? "red" : "black" }, suitSymbol(move.suit)) : gettext("Play"),
    move.announce === "last_card" ? h("span", { class: "say" }, ` + ${gettext("last card")}`) : null,
  );
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
      let label = gettext("Draw");
      if (pending && pending.draw > 0) {
        label = counted(pending.draw, ngettext("Pick up %(count)s card", "Pick up %(count)s cards", pending.draw));
      } else if (turn?.must_cover) {
        label = gettext("Draw (the queen stays uncovered)");
      }
      return moveButton(move, label, context);
    }
    case "end_turn": {
      let label = gettext("End turn");
      if (pending && pending.skip > 0 && turn?.played === 0) {
        label = gettext("Accept the skip");
      } else if (view.you?.drawn) {
        label = gettext("Keep the card, end turn");
      }
      return moveButton(move, label, context);
    }
    case "play":
      return moveButton(move, playLabel(move), context);
    default:
      return moveButton(move, move.action.replaceAll("_", " "), context);
  }
}
