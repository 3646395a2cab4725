// What both games' tables share: how a seat is named, and a legal move as a button.

import { gettext, interpolate } from "./i18n.js";
import { h } from "./vendor/preact.mjs";

/** @typedef {import("../../types/api").Action} Action */
/** @typedef {import("../../types/api").View} View */
/** @typedef {import("./vendor/preact.mjs").ComponentChildren} Children */

/**
 * What a game's table needs from the page around it.
 *
 * @typedef {object} TableContext
 * @property {(seat: number | null | undefined) => string} name a seat's player, or its bot
 * @property {(move: Action) => void} send post a legal move
 * @property {boolean} busy a move is on its way: the buttons wait
 * @property {number | null} mySeat null for a spectator
 */

/** @type {Record<string, () => string>} */
const STRATEGIES = {
  random: () => gettext("Random bot"),
  heuristic: () => gettext("Heuristic bot"),
  montecarlo: () => gettext("Monte Carlo bot"),
  search: () => gettext("Search bot"),
};

/**
 * A server bot in words, by its strategy: "Heuristic bot".
 *
 * @param {string} strategy
 */
export function botName(strategy) {
  return STRATEGIES[strategy]?.() ?? interpolate(gettext("%(strategy)s bot"), { strategy });
}

/**
 * A seat's name on the table: a link to the player's page when an account holds it (a bot's
 * seat has no page).
 *
 * @param {{player?: string | null}} seat
 * @param {string} name the seat's name as `seatNames` gives it
 * @returns {Children}
 */
export function seatLink(seat, name) {
  return seat.player ? h("a", { href: `/play/players/${encodeURIComponent(seat.player)}/` }, name) : name;
}

/**
 * How seats are called: the player's name as people see it (a tournament guest's without its
 * account's suffix); a bot by its strategy ("Random bot"), numbered by seat (from 1) when several
 * bots play the same strategy.
 *
 * @param {{seats: {seat: number, player?: string | null, name?: string | null, bot?: string | null}[]}} table a view, or a record's players
 * @returns {(seat: number | null | undefined) => string}
 */
export function seatNames(table) {
  const strategies = table.seats.map((seat) => (seat.player ? null : seat.bot));
  return (seat) => {
    if (seat === null || seat === undefined) {
      return gettext("The table");
    }
    const entry = table.seats[seat];
    const number = seat + 1;
    if (!entry) {
      return interpolate(gettext("Seat %(number)s"), { number });
    }
    if (entry.player) {
      return entry.name ?? entry.player;
    }
    if (entry.bot) {
      const twins = strategies.filter((other) => other === entry.bot).length;
      const name = botName(entry.bot);
      return twins > 1 ? `${name} ${number}` : name;
    }
    return interpolate(gettext("Open seat %(number)s"), { number });
  };
}

/**
 * A legal move as a button: `data-move` is the move exactly as the API listed it (the testing
 * hook of the contract), `label` its name. A button that shows something other than its words
 * (a card, a suit's symbol, a square) keeps the words for screen readers beside a picture they
 * skip, so that what it shows and what it is called never disagree.
 *
 * @param {Action} move
 * @param {string} label
 * @param {TableContext} context
 * @param {Children} [picture] what the button shows instead of its words
 * @param {string} [extraClass]
 */
export function moveButton(move, label, context, picture = null, extraClass = "") {
  const data = JSON.stringify(move);
  return h(
    "button",
    {
      key: data,
      type: "button",
      class: `move ${extraClass}`,
      "data-move": data,
      title: picture === null ? undefined : label,
      disabled: context.busy,
      onClick: () => context.send(move),
    },
    picture === null ? label : [picture, h("span", { class: "visually-hidden" }, label)],
  );
}
