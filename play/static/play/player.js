// A player's page, /play/players/NAME/: their rating in each game, the matches they played and
// won, and their recent matches, each linked to its replay once it is over (to its table before).
// Read from the player's public page and match list in the API; any signed-in player may look.

import { ApiError } from "./api.js";
import { counted, gettext, interpolate, language, ngettext } from "./i18n.js";
import { matchLine, statusWords } from "./lobbystate.js";
import { byId, whenSignedIn } from "./signin.js";
import { h, render } from "./vendor/preact.mjs";

/** @typedef {import("./api.js").Api} Api */
/** @typedef {import("../../types/api").MatchSummary} MatchSummary */
/** @typedef {import("../../types/api").PlayerPage} PlayerPage */

// The recent matches shown.
const RECENT = 20;

const root = byId("player");
const username = root.dataset.player ?? "";

/** @param {number} value */
function decimal(value) {
  return new Intl.NumberFormat(language(), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
}

/**
 * The games' ratings: the one number (μ − 3σ) and what it is made of.
 *
 * @param {PlayerPage} page
 */
function ratings(page) {
  const games = [
    ["shedding", gettext("Shedding Switch")],
    ["abbott", gettext("Abbott's Switch")],
  ];
  return h(
    "section",
    { "aria-labelledby": "ratings-title" },
    h("h2", { id: "ratings-title" }, gettext("Ratings")),
    h(
      "div",
      { class: "scroll" },
      h(
        "table",
        { class: "ratings" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col" }, gettext("Game")),
            h("th", { scope: "col" }, gettext("Rating")),
            h("th", { scope: "col" }, gettext("μ (skill)")),
            h("th", { scope: "col" }, gettext("σ (uncertainty)")),
            h("th", { scope: "col" }, gettext("Rated results")),
          ),
        ),
        h(
          "tbody",
          {},
          games.map(([game, title]) => {
            const rating = /** @type {Record<string, {rating: number, mu: number, sigma: number, games: number}>} */ (
              page.ratings
            )[game];
            return h(
              "tr",
              { key: game },
              h("th", { scope: "row" }, title),
              h("td", {}, decimal(rating.rating)),
              h("td", {}, decimal(rating.mu)),
              h("td", {}, decimal(rating.sigma)),
              h("td", {}, String(rating.games)),
            );
          }),
        ),
      ),
    ),
    h("p", { class: "note" }, gettext("The rating is μ − 3σ: it grows as results make the skill surer.")),
  );
}

/** @param {MatchSummary} match */
function recentLine(match) {
  const over = match.status === "finished" || match.status === "abandoned";
  return h(
    "li",
    { key: match.id },
    h(
      "a",
      { href: over ? `/play/matches/${match.id}/replay/` : `/play/matches/${match.id}/` },
      over ? interpolate(gettext("Replay of match %(id)s"), { id: match.id }) : matchLine(match),
    ),
    over ? `: ${match.ruleset}` : null,
    ` — ${statusWords(match.status)}, `,
    new Intl.DateTimeFormat(language(), { dateStyle: "medium" }).format(new Date(match.created_at)),
  );
}

/** @param {{api: Api}} session */
async function open({ api }) {
  render(h("p", {}, gettext("Loading…")), root);
  const path = `/players/${encodeURIComponent(username)}`;
  /** @type {PlayerPage} */
  let page;
  /** @type {MatchSummary[]} */
  let recent;
  try {
    [page, recent] = await Promise.all([api.get(`${path}/`), api.all(`${path}/matches/`, RECENT)]);
  } catch (failure) {
    if (!(failure instanceof ApiError)) {
      throw failure;
    }
    render(
      [
        h("h1", {}, username),
        h("p", { class: "error", role: "alert" }, failure.describe()),
        h("a", { href: "/play/" }, gettext("Lobby")),
      ],
      root,
    );
    return;
  }
  render(
    [
      h(
        "header",
        { class: "player-header" },
        h("h1", {}, page.username, page.bot ? h("span", { class: "badge" }, ` ${gettext("(bot account)")}`) : null),
        h(
          "p",
          {},
          interpolate(gettext("Playing since %(date)s."), {
            date: new Intl.DateTimeFormat(language(), { dateStyle: "long" }).format(new Date(page.created_at)),
          }),
          " ",
          interpolate(gettext("%(played)s, %(won)s."), {
            played: counted(
              page.matches.played,
              ngettext("%(count)s match played", "%(count)s matches played", page.matches.played),
            ),
            won: counted(page.matches.won, ngettext("%(count)s won", "%(count)s won", page.matches.won)),
          }),
          " ",
          h("a", { href: "/play/" }, gettext("Lobby")),
        ),
      ),
      ratings(page),
      h(
        "section",
        { "aria-labelledby": "recent-title" },
        h("h2", { id: "recent-title" }, gettext("Recent matches")),
        recent.length === 0
          ? h("p", {}, gettext("No match yet."))
          : h("ul", { class: "matches recent" }, recent.map(recentLine)),
      ),
    ],
    root,
  );
}

whenSignedIn(root, open);
