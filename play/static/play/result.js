// The end of a match: who won and how the score came about — every seat's total, each deal's
// (hand's) points and, in shedding Switch, the French tallies the winner's points are the sum
// of — or how it was abandoned.

import { counted, gettext, interpolate, ngettext, ordinal } from "./i18n.js";
import { h } from "./vendor/preact.mjs";

/** @typedef {import("../../types/api").View} View */
/** @typedef {import("../../types/api").Outcome} Outcome */
/** @typedef {Outcome["hands"][number] & {tallies?: number[]}} Hand */
/** @typedef {import("./vendor/preact.mjs").ComponentChildren} Children */

/** @param {number} count */
function points(count) {
  return counted(count, ngettext("%(count)s point", "%(count)s points", count));
}

/**
 * The end: who won, the totals and where they come from; `extra` (Play again, the replay) after.
 *
 * @param {{game: string, seats: {seat: number}[], result: View["result"]}} match a view, or a record's
 * @param {(seat: number | null | undefined) => string} name
 * @param {Children} [extra]
 */
export function resultPanel(match, name, extra = null) {
  const result = match.result;
  if (result === null || result === undefined) {
    return null;
  }
  if ("abandoned" in result) {
    const resigned = result.resigned?.length
      ? interpolate(gettext("Resigned: %(players)s."), {
          players: result.resigned.map((seat) => name(seat)).join(", "),
        })
      : "";
    return h(
      "section",
      { class: "result", "aria-label": gettext("Result") },
      h("h2", {}, gettext("The match was abandoned")),
      h("p", {}, [result.reason ? `${result.reason}.` : "", resigned].filter(Boolean).join(" ")),
      extra,
    );
  }
  const shedding = match.game === "shedding";
  /** @type {Hand[]} */
  const hands = result.hands;
  const tallied = shedding && hands.length > 0 && hands.every((hand) => Array.isArray(hand.tallies));
  /** @type {number[] | undefined} */
  const conceded = /** @type {{conceded?: number[]}} */ (result).conceded;
  const seats = match.seats.map((seat) => seat.seat);
  return h(
    "section",
    { class: "result", "aria-label": gettext("Result") },
    h("h2", {}, interpolate(gettext("%(player)s wins the match"), { player: name(result.winner) })),
    h(
      "ol",
      { class: "ranking" },
      result.ranking.map((seat, place) =>
        h(
          "li",
          { key: seat },
          h("span", { class: "place" }, ordinal(place + 1)),
          " ",
          interpolate(gettext("%(player)s: %(points)s"), {
            player: name(seat),
            points: points(result.totals[seat] ?? 0),
          }),
          conceded
            ? h(
                "span",
                { class: "conceded" },
                " ",
                interpolate(gettext("(tallies left holding: %(count)s)"), { count: conceded[seat] ?? 0 }),
              )
            : null,
        ),
      ),
    ),
    shedding
      ? h(
          "p",
          { class: "how-scored" },
          gettext(
            "The winner of a deal scores the French tally of the cards left in the other hands: an ace 20, a two, a four or a jack 15, a king or a queen 10, a joker 25, any other card its face value.",
          ),
        )
      : h(
          "p",
          { class: "how-scored" },
          gettext(
            "The winner of a hand scores by the poker hand made of the cards taken; the totals run over the hands.",
          ),
        ),
    h(
      "div",
      { class: "scores-wrap", tabindex: "0", role: "region", "aria-label": gettext("Points") },
      h(
        "table",
        { class: "scores" },
        h("caption", {}, shedding ? gettext("Points by deal") : gettext("Points by hand")),
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col" }, shedding ? gettext("Deal") : gettext("Hand")),
            seats.map((seat) => h("th", { key: seat, scope: "col" }, name(seat))),
          ),
        ),
        h(
          "tbody",
          {},
          hands.map((hand) =>
            h(
              "tr",
              { key: hand.number },
              h("th", { scope: "row" }, String(hand.number)),
              seats.map((seat) =>
                h("td", { key: seat, class: hand.winner === seat ? "winner" : "" }, cell(hand, seat, tallied)),
              ),
            ),
          ),
          h(
            "tr",
            { class: "total" },
            h("th", { scope: "row" }, gettext("Total")),
            seats.map((seat) => h("td", { key: seat }, String(result.totals[seat] ?? 0))),
          ),
        ),
      ),
    ),
    extra,
  );
}

/**
 * A seat's points in one deal; with tallies, the winner's as the sum of the others' tallies and
 * each other seat's tally beside its 0.
 *
 * @param {Hand} hand
 * @param {number} seat
 * @param {boolean} tallied
 */
function cell(hand, seat, tallied) {
  const scored = String(hand.points[seat] ?? 0);
  if (!tallied || !hand.tallies) {
    return scored;
  }
  const tallies = hand.tallies;
  if (hand.winner === seat) {
    const others = tallies.filter((_, other) => other !== seat);
    return [scored, h("span", { class: "sum" }, ` = ${others.join(" + ")}`)];
  }
  return [
    scored,
    h("span", { class: "tally" }, ` ${interpolate(gettext("(tally %(count)s)"), { count: tallies[seat] ?? 0 })}`),
  ];
}
