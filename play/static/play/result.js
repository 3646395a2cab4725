// The end of a match: who won, every seat's total, and each deal's (hand's) points; or how it was
// abandoned.

import { h, plural } from "./dom.js";

/** @typedef {import("../../types/api").View} View */

/**
 * The end: who won, the totals, and every deal's (hand's) points.
 *
 * @param {View} view
 * @param {(seat: number | null | undefined) => string} name
 */
export function resultPanel(view, name) {
  const result = view.result;
  if (result === null) {
    return null;
  }
  if ("abandoned" in result) {
    const resigned = result.resigned?.length
      ? ` Resigned: ${result.resigned.map((seat) => name(seat)).join(", ")}.`
      : "";
    return h(
      "section",
      { class: "result" },
      h("h2", {}, "The match was abandoned"),
      h("p", {}, `${result.reason ? `${result.reason}.` : ""}${resigned}`),
    );
  }
  const seats = view.seats.map((seat) => seat.seat);
  return h(
    "section",
    { class: "result", "aria-label": "Result" },
    h("h2", {}, `${name(result.winner)} wins the match`),
    h(
      "ol",
      { class: "ranking" },
      result.ranking.map((seat) => h("li", {}, `${name(seat)}: ${plural(result.totals[seat] ?? 0, "point")}`)),
    ),
    h(
      "div",
      { class: "scores-wrap", tabindex: "0", role: "region", "aria-label": "Points" },
      h(
        "table",
        { class: "scores" },
        h("caption", {}, view.game === "shedding" ? "Points by deal" : "Points by hand"),
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col" }, view.game === "shedding" ? "Deal" : "Hand"),
            seats.map((seat) => h("th", { scope: "col" }, name(seat))),
          ),
        ),
        h(
          "tbody",
          {},
          result.hands.map((hand) =>
            h(
              "tr",
              {},
              h("th", { scope: "row" }, String(hand.number)),
              seats.map((seat) =>
                h("td", { class: hand.winner === seat ? "winner" : "" }, String(hand.points[seat] ?? 0)),
              ),
            ),
          ),
          h(
            "tr",
            { class: "total" },
            h("th", { scope: "row" }, "Total"),
            seats.map((seat) => h("td", {}, String(result.totals[seat] ?? 0))),
          ),
        ),
      ),
    ),
  );
}
