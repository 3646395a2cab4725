// The table of Abbott's Switch: the face-up grid with the pieces and the legal target squares as
// buttons, the seats with their captured cards, best hands and running totals, the alliance, and
// the questions of the end of a hand (docs/api.md, "The Abbott view"; docs/rules.md §4).

import { cardFace, cardName, cardRow } from "./cards.js";
import { h } from "./dom.js";
import { categoryName, squareName } from "./log.js";
import { moveButton } from "./moves.js";

/** @typedef {import("../../types/api").AbbottView} AbbottView */
/** @typedef {import("../../types/api").Action} Action */
/** @typedef {import("./moves.js").TableContext} TableContext */

/**
 * @param {AbbottView} view
 * @param {TableContext} context
 */
export function abbottBoard(view, context) {
  return h(
    "div",
    { class: "board abbott" },
    grid(view, context),
    h("div", { class: "abbott-side" }, handFacts(view, context), actions(view, context), seatList(view, context)),
  );
}

/**
 * @param {AbbottView} view
 * @param {TableContext} context
 */
function grid(view, context) {
  const rows = view.grid ?? [];
  const pieces = view.pieces ?? [];
  /** @type {Map<string, Extract<Action, {action: "move"}>>} */
  const targets = new Map();
  for (const move of view.legal_moves) {
    if (move.action === "move") {
      targets.set(move.to.join(","), move);
    }
  }
  const moving = view.piece_to_move ?? null;
  const squares = rows.flatMap((row, r) =>
    row.map((code, c) => {
      const owner = pieces.findIndex((piece) => piece[0] === r && piece[1] === c);
      const move = targets.get(`${r},${c}`);
      const content = [
        code ? cardFace(code) : h("span", { class: "empty", "aria-hidden": "true" }),
        owner >= 0 ? piece(owner, context) : null,
      ];
      const what = [code ? cardName(code) : "empty", owner >= 0 ? `${context.name(owner)}'s piece` : null]
        .filter(Boolean)
        .join(", ");
      if (move) {
        const mover = moving !== null && moving !== context.mySeat ? `${context.name(moving)}'s piece` : "your piece";
        const label = `Move ${mover} to ${squareName([r, c])}${code ? `, taking the ${cardName(code)}` : ", an empty square"}`;
        return moveButton(move, label, context, content, "square target");
      }
      return h("div", { class: "square", role: "img", "aria-label": `${squareName([r, c])}: ${what}` }, content);
    }),
  );
  return h(
    "section",
    { class: "grid-wrap", "aria-label": "The grid" },
    h("div", { class: `grid size-${view.size ?? rows.length}` }, squares),
  );
}

/**
 * A seat's piece: its colour and initial.
 *
 * @param {number} seat
 * @param {TableContext} context
 */
function piece(seat, context) {
  return h("span", { class: `piece seat-${seat}`, "aria-hidden": "true" }, context.name(seat).charAt(0).toUpperCase());
}

/**
 * @param {AbbottView} view
 * @param {TableContext} context
 */
function handFacts(view, context) {
  if (view.status === "waiting") {
    return null;
  }
  const alliance = view.alliance ?? null;
  const moving = view.piece_to_move ?? null;
  return h(
    "div",
    { class: "facts" },
    h("p", {}, `Hand ${view.hand ?? 1}; the game goes to ${view.target ?? 20} points.`),
    moving !== null && moving !== view.to_move
      ? h("p", {}, `${context.name(view.to_move)} moves ${context.name(moving)}'s piece (16 or more).`)
      : null,
    view.consent_asked !== null && view.consent_asked !== undefined
      ? h("p", { class: "pending" }, `${context.name(view.consent_asked)} is asked to agree to end the hand.`)
      : null,
    alliance
      ? h("p", {}, `Alliance: ${context.name(alliance.chooser)} chose ${context.name(alliance.chosen)}.`)
      : view.players === 4
        ? h("p", {}, "No alliance yet this hand.")
        : null,
  );
}

/**
 * The moves that are not squares of the grid.
 *
 * @param {AbbottView} view
 * @param {TableContext} context
 */
function actions(view, context) {
  const asked = view.consent_asked === context.mySeat && context.mySeat !== null;
  const buttons = view.legal_moves.flatMap((move) => {
    switch (move.action) {
      case "move":
        return [];
      case "ally":
        return [moveButton(move, `Ally with ${context.name(move.partner)}`, context)];
      case "propose_end":
        return [moveButton(move, asked ? "Agree to end the hand" : "Propose to end the hand", context)];
      case "decline_end":
        return [moveButton(move, "Decline to end the hand", context)];
      case "pass":
        return [moveButton(move, "Pass (no move is possible)", context)];
      default:
        return [moveButton(move, move.action.replaceAll("_", " "), context)];
    }
  });
  return buttons.length > 0 ? h("div", { class: "actions" }, buttons) : null;
}

/**
 * @param {AbbottView} view
 * @param {TableContext} context
 */
function seatList(view, context) {
  const alliance = view.alliance ?? null;
  const controls = view.controls ?? [];
  return h(
    "section",
    { class: "seats", "aria-label": "Seats" },
    h(
      "ol",
      {},
      view.seats.map((seat) => {
        const best = seat.best_hand;
        const allied = alliance && (alliance.chooser === seat.seat || alliance.chosen === seat.seat);
        const controlled = controls.flatMap((by, owner) => (by === seat.seat && owner !== seat.seat ? [owner] : []));
        return h(
          "li",
          {
            class: `seat${view.to_move === seat.seat ? " to-move" : ""}${seat.seat === context.mySeat ? " mine" : ""}`,
            "data-seat": seat.seat,
          },
          h(
            "span",
            { class: "seat-name" },
            piece(seat.seat, context),
            ` ${context.name(seat.seat)}`,
            seat.seat === context.mySeat ? " (you)" : null,
            view.to_move === seat.seat ? h("span", { class: "visually-hidden" }, ", to move") : null,
          ),
          h("span", { class: "score" }, `${seat.total ?? 0} of ${view.target ?? 20} points`),
          h("span", { class: "taken" }, "Cards: ", cardRow(seat.cards ?? [], "none yet")),
          best && best.cards.length > 0
            ? h("span", { class: "best" }, `Best hand: ${categoryName(best.category)} `, cardRow(best.cards))
            : null,
          seat.proposed_end ? h("span", { class: "badge" }, "Proposes to end") : null,
          allied ? h("span", { class: "badge" }, "Allied") : null,
          controlled.length > 0
            ? h(
                "span",
                { class: "badge" },
                `Also moves ${controlled.map((owner) => context.name(owner)).join(", ")}'s piece`,
              )
            : null,
          seat.resigned ? h("span", { class: "badge" }, "Resigned") : null,
        );
      }),
    ),
  );
}
