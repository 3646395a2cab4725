// A table's result as the players type it on a phone, and the body the API takes for it (the
// desk's body, docs/api.md "Table results"): pure functions, tested in Node (tests/reportform).

import { gettext, interpolate } from "./i18n.js";

/**
 * One row of the form: a deal (French tallies, or a placement order) or an Abbott hand.
 * @typedef {{winner: string, tallies: Record<string, string>, order: string[], chooser: string, chosen: string}} Row
 */

/** @returns {Row} */
export function emptyRow() {
  return { winner: "", tallies: {}, order: [], chooser: "", chosen: "" };
}

/**
 * How many rows the form starts with: the deals a round plays, else one (more are added).
 *
 * @param {{scoring: string, deals_per_round: number | null}} tournament
 */
export function firstRows(tournament) {
  return tournament.scoring !== "abbott" && tournament.deals_per_round ? tournament.deals_per_round : 1;
}

/** Whether rows may be added: a target (or Abbott's game) decides how many there are. */
export function rowsGrow(/** @type {{scoring: string, deals_per_round: number | null}} */ tournament) {
  return tournament.scoring === "abbott" || !tournament.deals_per_round;
}

/**
 * The API's body for the rows typed: `deals` for French and placement scoring, `hands` for
 * Abbott's. Nothing is checked here: the server checks a report exactly as the desk's entry.
 *
 * @param {string} scoring
 * @param {string[]} names the table's players in seat order
 * @param {Row[]} rows
 * @param {boolean} confirm a French tally above 150 is meant
 */
export function resultBody(scoring, names, rows, confirm = false) {
  if (scoring === "abbott") {
    return {
      hands: rows.map((row) => ({
        winner: row.winner || null,
        alliance: row.chooser && row.chosen ? { chooser: row.chooser, chosen: row.chosen } : null,
      })),
    };
  }
  if (scoring === "placement") {
    return { deals: rows.map((row) => ({ order: row.order.filter(Boolean) })) };
  }
  const deals = rows.map((row) => ({
    winner: row.winner,
    points_left: Object.fromEntries(
      names.filter((name) => name !== row.winner).map((name) => [name, Number(row.tallies[name] ?? "")]),
    ),
  }));
  return confirm ? { deals, confirm: true } : { deals };
}

/**
 * A reported result in words, one line a deal or hand, for the players to check.
 *
 * @param {any} result the body as reported
 * @returns {string[]}
 */
export function resultLines(result) {
  if (Array.isArray(result.hands)) {
    return result.hands.map((/** @type {any} */ hand, /** @type {number} */ index) => {
      const won = hand.winner ? interpolate(gettext("%(name)s won"), { name: hand.winner }) : gettext("a tie");
      const allied = hand.alliance ? interpolate(gettext(" (%(chooser)s with %(chosen)s)"), hand.alliance) : "";
      return interpolate(gettext("Hand %(number)s: %(what)s"), { number: index + 1, what: won + allied });
    });
  }
  return (result.deals ?? []).map((/** @type {any} */ deal, /** @type {number} */ index) => {
    const what = Array.isArray(deal.order)
      ? deal.order.join(", ")
      : interpolate(gettext("%(name)s went out; %(tallies)s"), {
          name: deal.winner,
          tallies: Object.entries(deal.points_left ?? {})
            .map(([name, tally]) => `${name} ${tally}`)
            .join(", "),
        });
    return interpolate(gettext("Deal %(number)s: %(what)s"), { number: index + 1, what });
  });
}
