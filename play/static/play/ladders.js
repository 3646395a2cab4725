// The ladders, /play/ladders/: every ladder (its ruleset, table size, how often it seats a round,
// how many bots joined and are online now) and its standings, best first — the members and the
// server bots that fill its tables, each with its rating, μ, σ, rated games and last match. Read
// from the public API; any signed-in player may look. Bots join through the API, not here.

import { ApiError } from "./api.js";
import { counted, gettext, interpolate, language, ngettext } from "./i18n.js";
import { botName } from "./moves.js";
import { byId, whenSignedIn } from "./signin.js";
import { h, render } from "./vendor/preact.mjs";

/** @typedef {import("./api.js").Api} Api */
/** @typedef {import("../../types/api").Ladder} Ladder */
/** @typedef {import("../../types/api").Standing} Standing */

// The rows of each ladder's standings shown here (its public page shows them all).
const SHOWN = 50;

const root = byId("ladders");

/** @param {number} value */
function decimal(value) {
  return new Intl.NumberFormat(language(), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value);
}

/**
 * A standing's player: a bot account's page, or a server bot in words.
 *
 * @param {Standing} row
 */
function who(row) {
  if (row.player.startsWith("bot:")) {
    return botName(row.player.slice("bot:".length));
  }
  return h("a", { href: `/play/players/${encodeURIComponent(row.player)}/` }, row.player);
}

/** @param {Standing[]} rows */
function standings(rows) {
  if (rows.length === 0) {
    return h("p", {}, gettext("No bot has joined yet."));
  }
  return h(
    "div",
    { class: "scroll" },
    h(
      "table",
      { class: "standings" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", { scope: "col" }, gettext("Place")),
          h("th", { scope: "col" }, gettext("Bot")),
          h("th", { scope: "col" }, gettext("Rating")),
          h("th", { scope: "col" }, gettext("μ (skill)")),
          h("th", { scope: "col" }, gettext("σ (uncertainty)")),
          h("th", { scope: "col" }, gettext("Rated results")),
          h("th", { scope: "col" }, gettext("Last match")),
        ),
      ),
      h(
        "tbody",
        {},
        rows.map((row, index) =>
          h(
            "tr",
            { key: row.player, class: row.active ? "" : "inactive" },
            h("td", {}, String(index + 1)),
            h("th", { scope: "row" }, who(row), row.active ? null : ` (${gettext("inactive")})`),
            h("td", {}, decimal(row.rating)),
            h("td", {}, decimal(row.mu)),
            h("td", {}, decimal(row.sigma)),
            h("td", {}, String(row.games)),
            h(
              "td",
              {},
              row.last_match === null
                ? "—"
                : h(
                    "a",
                    { href: `/play/matches/${row.last_match}/` },
                    interpolate(gettext("Match %(number)s"), { number: row.last_match }),
                  ),
            ),
          ),
        ),
      ),
    ),
  );
}

/**
 * @param {Ladder} ladder
 * @param {Standing[]} rows
 */
function ladderSection(ladder, rows) {
  const id = `ladder-${ladder.id}`;
  const every = Math.round(ladder.interval_seconds / 60);
  return h(
    "section",
    { "aria-labelledby": id, key: ladder.id },
    h(
      "h2",
      { id },
      interpolate(gettext("%(ruleset)s, %(seats)s"), {
        ruleset: ladder.ruleset,
        seats: counted(ladder.seats, ngettext("%(count)s player", "%(count)s players", ladder.seats)),
      }),
    ),
    h(
      "p",
      {},
      interpolate(gettext("A round every %(minutes)s; %(members)s, %(online)s online now."), {
        minutes: counted(every, ngettext("%(count)s minute", "%(count)s minutes", every)),
        members: counted(ladder.members, ngettext("%(count)s bot", "%(count)s bots", ladder.members)),
        online: ladder.online,
      }),
      " ",
      h("a", { href: `/ladders/${ladder.id}/` }, gettext("Public page")),
    ),
    standings(rows),
  );
}

/** @param {{api: Api}} session */
async function ladders({ api }) {
  /** @param {import("./vendor/preact.mjs").ComponentChildren} body */
  function draw(body) {
    render(
      [
        h(
          "header",
          {},
          h("p", {}, h("a", { href: "/play/" }, gettext("Back to the lobby"))),
          h("h1", {}, gettext("Ladders")),
          h(
            "p",
            { class: "note" },
            gettext(
              "Bot accounts join a ladder through the API; every round seats those online in rated matches against bots of close rating, server bots filling the tables.",
            ),
          ),
        ),
        body,
      ],
      root,
    );
  }

  draw(h("p", {}, gettext("Loading…")));
  try {
    /** @type {Ladder[]} */
    const all = await api.all("/ladders/", 50);
    /** @type {Standing[][]} */
    const tables = await Promise.all(all.map((ladder) => api.all(`/ladders/${ladder.id}/standings/`, SHOWN)));
    draw(
      all.length === 0
        ? h("p", {}, gettext("There is no ladder yet."))
        : all.map((ladder, index) => ladderSection(ladder, tables[index] ?? [])),
    );
  } catch (failure) {
    if (!(failure instanceof ApiError)) {
      throw failure;
    }
    draw(h("p", { class: "error", role: "alert" }, failure.describe()));
  }
}

whenSignedIn(root, ladders);
