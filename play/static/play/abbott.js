// The table of Abbott's Switch: the face-up grid with the pieces and the legal target squares as
// buttons, the seats with their captured cards, best hands and running totals, the alliance, and
// the questions of the end of a hand (docs/api.md, "The Abbott view"; docs/rules.md §4).

import { cardFace, cardName, cardRow, theCard } from "./cards.js";
import { gettext, interpolate } from "./i18n.js";
import { categoryName, squareName } from "./log.js";
import { moveButton, seatLink } from "./moves.js";
import { h } from "./vendor/preact.mjs";

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
    grid(view, context, view.legal_moves, view.piece_to_move ?? null),
    h("div", { class: "abbott-side" }, handFacts(view, context), actions(view, context), seatList(view, context)),
  );
}

/**
 * The grid: a square a legal move goes to is that move's button.
 *
 * @param {{grid?: (string | null)[][] | null, pieces?: number[][] | null, size?: number | null}} position
 * @param {TableContext} context
 * @param {Action[]} [moves]
 * @param {number | null} [moving] whose piece moves, when not the caller's
 */
export function grid(position, context, moves = [], moving = null) {
  const rows = position.grid ?? [];
  const pieces = position.pieces ?? [];
  /** @type {Map<string, Extract<Action, {action: "move"}>>} */
  const targets = new Map();
  for (const move of moves) {
    if (move.action === "move") {
      targets.set(move.to.join(","), move);
    }
  }
  const squares = rows.flatMap((row, r) =>
    row.map((code, c) => {
      const owner = pieces.findIndex((piece) => piece[0] === r && piece[1] === c);
      const move = targets.get(`${r},${c}`);
      const picture = [
        code ? cardFace(code) : h("span", { class: "empty", "aria-hidden": "true" }),
        owner >= 0 ? piece(owner, context, true) : null,
      ];
      const where = squareName([r, c]);
      if (move) {
        const mover =
          moving !== null && moving !== context.mySeat
            ? interpolate(gettext("%(player)s's piece"), { player: context.name(moving) })
            : gettext("your piece");
        const label = code
          ? interpolate(gettext("Move %(piece)s to %(square)s, taking %(card)s"), {
              piece: mover,
              square: where,
              card: theCard(code),
            })
          : interpolate(gettext("Move %(piece)s to %(square)s, an empty square"), { piece: mover, square: where });
        return moveButton(move, label, context, picture, "square target");
      }
      const what = [
        code ? cardName(code) : gettext("empty"),
        owner >= 0 ? interpolate(gettext("%(player)s's piece"), { player: context.name(owner) }) : null,
      ]
        .filter(Boolean)
        .join(", ");
      return h("div", { key: `${r},${c}`, class: "square", role: "img", "aria-label": `${where}: ${what}` }, picture);
    }),
  );
  return h(
    "section",
    { class: "grid-wrap", "aria-label": gettext("The grid") },
    h("div", { class: `grid size-${position.size ?? rows.length}` }, squares),
  );
}

/**
 * What a seat's piece is marked with besides its colour: its player's initial, with the seat's
 * number when another player's name starts alike (three heuristic bots are H2, H3 and H4, not
 * three H's).
 *
 * @param {number} seat
 * @param {(seat: number) => string} name
 */
export function pieceMark(seat, name) {
  /** @param {number} other */
  const initial = (other) => name(other).charAt(0).toUpperCase();
  const alike = [0, 1, 2, 3].some((other) => other !== seat && initial(other) === initial(seat));
  return alike ? `${initial(seat)}${seat + 1}` : initial(seat);
}

/**
 * A seat's piece: its colour and its mark.
 *
 * @param {number} seat
 * @param {TableContext} context
 * @param {boolean} [onGrid] the piece itself, which glides when it moves (not its sign in the seats)
 */
function piece(seat, context, onGrid = false) {
  return h(
    "span",
    { class: `piece seat-${seat}`, "data-flip": onGrid ? `piece:${seat}` : undefined, "aria-hidden": "true" },
    pieceMark(seat, context.name),
  );
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
    h(
      "p",
      {},
      interpolate(gettext("Hand %(hand)s; the game goes to %(target)s points."), {
        hand: view.hand ?? 1,
        target: view.target ?? 20,
      }),
    ),
    moving !== null && moving !== view.to_move
      ? h(
          "p",
          {},
          interpolate(gettext("%(player)s moves %(owner)s's piece (16 or more)."), {
            player: context.name(view.to_move),
            owner: context.name(moving),
          }),
        )
      : null,
    view.consent_asked !== null && view.consent_asked !== undefined
      ? h(
          "p",
          { class: "pending" },
          interpolate(gettext("%(player)s is asked to agree to end the hand."), {
            player: context.name(view.consent_asked),
          }),
        )
      : null,
    alliance
      ? h(
          "p",
          {},
          interpolate(gettext("Alliance: %(chooser)s chose %(chosen)s."), {
            chooser: context.name(alliance.chooser),
            chosen: context.name(alliance.chosen),
          }),
        )
      : view.players === 4
        ? h("p", {}, gettext("No alliance yet this hand."))
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
        return [
          moveButton(
            move,
            interpolate(gettext("Ally with %(player)s"), { player: context.name(move.partner) }),
            context,
          ),
        ];
      case "propose_end":
        return [
          moveButton(move, asked ? gettext("Agree to end the hand") : gettext("Propose to end the hand"), context),
        ];
      case "decline_end":
        return [moveButton(move, gettext("Decline to end the hand"), context)];
      case "pass":
        return [moveButton(move, gettext("Pass (no move is possible)"), context)];
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
  const target = view.target ?? 20;
  return h(
    "section",
    { class: "seats", "aria-label": gettext("Seats") },
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
            key: seat.seat,
            class: `seat${view.to_move === seat.seat ? " to-move" : ""}${seat.seat === context.mySeat ? " mine" : ""}`,
            "data-seat": seat.seat,
          },
          h(
            "span",
            { class: "seat-name" },
            piece(seat.seat, context),
            " ",
            seatLink(seat, context.name(seat.seat)),
            seat.seat === context.mySeat ? ` ${gettext("(you)")}` : null,
            view.to_move === seat.seat ? h("span", { class: "visually-hidden" }, `, ${gettext("to move")}`) : null,
          ),
          h(
            "span",
            { class: "score" },
            interpolate(gettext("%(total)s of %(target)s points"), { total: seat.total ?? 0, target }),
          ),
          h("span", { class: "taken" }, gettext("Cards:"), " ", cardRow(seat.cards ?? [], gettext("none yet"))),
          best && best.cards.length > 0
            ? h(
                "span",
                { class: "best" },
                interpolate(gettext("Best hand: %(hand)s"), { hand: categoryName(best.category) }),
                " ",
                cardRow(best.cards),
              )
            : null,
          seat.proposed_end ? h("span", { class: "badge" }, gettext("Proposes to end")) : null,
          allied ? h("span", { class: "badge" }, gettext("Allied")) : null,
          controlled.length > 0
            ? h(
                "span",
                { class: "badge" },
                interpolate(gettext("Also moves %(players)s's piece"), {
                  players: controlled.map((owner) => context.name(owner)).join(", "),
                }),
              )
            : null,
          seat.resigned ? h("span", { class: "badge" }, gettext("Resigned")) : null,
        );
      }),
    ),
  );
}
