// What both games' tables share: how a seat is named, and a legal move as a button.

import { h } from "./dom.js";

/** @typedef {import("../../types/api").Action} Action */
/** @typedef {import("../../types/api").View} View */
/** @typedef {import("./dom.js").Child} Child */

/**
 * What a game's table needs from the page around it.
 *
 * @typedef {object} TableContext
 * @property {(seat: number | null | undefined) => string} name a seat's player, or its bot
 * @property {(move: Action) => void} send post a legal move
 * @property {boolean} busy a move is on its way: the buttons wait
 * @property {number | null} mySeat null for a spectator
 */

/**
 * How seats are called: the player's name; a bot by its strategy ("Random bot"), numbered by seat
 * when several bots play the same strategy.
 *
 * @param {View} view
 * @returns {(seat: number | null | undefined) => string}
 */
export function seatNames(view) {
  const strategies = view.seats.map((seat) => (seat.player ? null : seat.bot));
  return (seat) => {
    if (seat === null || seat === undefined) {
      return "The table";
    }
    const entry = view.seats[seat];
    if (!entry) {
      return `Seat ${seat + 1}`;
    }
    if (entry.player) {
      return entry.player;
    }
    if (entry.bot) {
      const strategy = entry.bot.charAt(0).toUpperCase() + entry.bot.slice(1);
      const twins = strategies.filter((other) => other === entry.bot).length;
      return twins > 1 ? `${strategy} bot ${seat + 1}` : `${strategy} bot`;
    }
    return `Open seat ${seat + 1}`;
  };
}

/**
 * A legal move as a button: `data-move` is the move exactly as the API listed it (the testing
 * hook of the contract), `label` its accessible name.
 *
 * @param {Action} move
 * @param {string} label
 * @param {TableContext} context
 * @param {Child | Child[]} content what the button shows (the label when omitted)
 * @param {string} [extraClass]
 */
export function moveButton(move, label, context, content = label, extraClass = "") {
  return h(
    "button",
    {
      type: "button",
      class: `move ${extraClass}`,
      "data-move": JSON.stringify(move),
      "aria-label": label,
      title: label,
      disabled: context.busy,
      onclick: () => context.send(move),
    },
    content,
  );
}
