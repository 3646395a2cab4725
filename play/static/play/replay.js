// The replay of a finished match, /play/matches/N/replay/ (?step=S for a given moment: a link to
// share): its record and its event log, revealed once it is over, stepped through forwards and
// back (buttons, or the arrow keys, Home and End), a deal (hand) at a time if wished, every hand
// face up (replaystate.js).

import { grid } from "./abbott.js";
import { ApiError } from "./api.js";
import { card, cardRow } from "./cards.js";
import { counted, gettext, interpolate, ngettext } from "./i18n.js";
import { describe } from "./log.js";
import { seatNames } from "./moves.js";
import { dealStarts, steps } from "./replaystate.js";
import { resultPanel } from "./result.js";
import { byId, whenSignedIn } from "./signin.js";
import { h, render } from "./vendor/preact.mjs";

/** @typedef {import("./api.js").Api} Api */
/** @typedef {import("../../types/api").MatchEvent} MatchEvent */
/** @typedef {import("./replaystate.js").Step} Step */
/** @typedef {import("./replaystate.js").SheddingPosition} SheddingPosition */
/** @typedef {import("./replaystate.js").AbbottPosition} AbbottPosition */
/** @typedef {import("./moves.js").TableContext} TableContext */

/**
 * @typedef {object} GameRecord what the page reads of `GET /matches/{id}/record/`
 * @property {{id: number, ruleset: string, game: string, seat_count: number, status: string}} match
 * @property {{seat: number, player: string | null, bot: string | null}[]} players
 * @property {import("../../types/api").View["result"]} result
 */

const root = byId("replay");
const matchId = Number(root.dataset.match);

/** @param {{api: Api}} session */
async function open({ api }) {
  render(h("p", {}, gettext("Loading the replay…")), root);
  /** @type {GameRecord} */
  let record;
  /** @type {MatchEvent[]} */
  let events;
  try {
    [record, events] = await Promise.all([
      api.get(`/matches/${matchId}/record/`),
      api.all(`/matches/${matchId}/events/?after=0&limit=500`, 1_000_000),
    ]);
  } catch (failure) {
    if (!(failure instanceof ApiError)) {
      throw failure;
    }
    const words =
      failure.code === "cursor_expired"
        ? gettext("This match's moves are no longer kept, so it cannot be replayed.")
        : failure.describe();
    render(
      [
        h("h1", {}, interpolate(gettext("Replay of match %(id)s"), { id: matchId })),
        h("p", { class: "error", role: "alert" }, words),
        h("a", { href: `/play/matches/${matchId}/` }, gettext("The match's table")),
      ],
      root,
    );
    return;
  }
  const all = steps({ game: record.match.game, seats: record.match.seat_count }, events);
  const starts = dealStarts(all);
  const table = { seats: record.players };
  const name = seatNames(table);
  const asked = Number(new URL(window.location.href).searchParams.get("step"));
  let at = Number.isInteger(asked) && asked >= 1 && asked <= all.length ? asked - 1 : 0;

  /** @param {number} index */
  function go(index) {
    at = Math.max(0, Math.min(all.length - 1, index));
    const url = new URL(window.location.href);
    url.searchParams.set("step", String(at + 1));
    window.history.replaceState(null, "", url);
    draw();
  }

  function draw() {
    const step = all[at];
    render(
      [
        h(
          "header",
          { class: "table-header" },
          h(
            "h1",
            {},
            interpolate(gettext("Replay of match %(id)s · %(ruleset)s"), {
              id: matchId,
              ruleset: record.match.ruleset,
            }),
          ),
          h(
            "p",
            {},
            h("a", { href: `/play/matches/${matchId}/` }, gettext("The match's table")),
            " ",
            h("a", { href: "/play/" }, gettext("Lobby")),
          ),
        ),
        all.length === 0 ? h("p", {}, gettext("This match has no moves to replay.")) : controls(step),
        step ? board(step) : null,
        resultPanel({ game: record.match.game, seats: record.players, result: record.result }, name),
      ],
      root,
    );
    root.dataset.step = String(at + 1);
  }

  /** @param {Step} step */
  function controls(step) {
    const deal = step.deal;
    return h(
      "nav",
      { class: "replay-controls", "aria-label": gettext("Replay") },
      h("button", { type: "button", onClick: () => go(0), disabled: at === 0 }, gettext("First")),
      h(
        "button",
        { type: "button", onClick: () => go(at - 1), disabled: at === 0, "aria-keyshortcuts": "ArrowLeft" },
        gettext("Back"),
      ),
      h(
        "button",
        {
          type: "button",
          onClick: () => go(at + 1),
          disabled: at === all.length - 1,
          "aria-keyshortcuts": "ArrowRight",
        },
        gettext("Forward"),
      ),
      h(
        "button",
        { type: "button", onClick: () => go(all.length - 1), disabled: at === all.length - 1 },
        gettext("Last"),
      ),
      " ",
      h(
        "label",
        {},
        record.match.game === "shedding" ? gettext("Deal") : gettext("Hand"),
        " ",
        h(
          "select",
          {
            value: String(deal),
            onChange: (/** @type {Event} */ event) =>
              go(starts.get(Number(/** @type {HTMLSelectElement} */ (event.target).value)) ?? at),
          },
          [...starts.keys()].map((number) => h("option", { key: number, value: String(number) }, String(number))),
        ),
      ),
      " ",
      h(
        "span",
        { class: "step-count", role: "status" },
        interpolate(gettext("Step %(step)s of %(steps)s"), { step: at + 1, steps: all.length }),
      ),
    );
  }

  /** @param {Step} step */
  function board(step) {
    const said = step.events.map((event) => describe(event, name, null)).filter((sentence) => sentence !== null);
    const position = step.position;
    return h(
      "div",
      { class: "replay-board" },
      h(
        "ol",
        { class: "replay-said", "aria-live": "polite" },
        said.map((sentence) => h("li", {}, sentence)),
      ),
      position.game === "shedding" ? sheddingTable(position) : abbottTable(position),
    );
  }

  /** @param {SheddingPosition} position */
  function sheddingTable(position) {
    return h(
      "div",
      { class: "board shedding" },
      h(
        "section",
        { class: "pile", "aria-label": gettext("The pile") },
        h("div", { class: "top-card" }, position.top ? card(position.top, "large") : null),
        h(
          "p",
          {},
          interpolate(gettext("Stock: %(stock)s · Discard pile: %(discards)s"), {
            stock: counted(position.stock, ngettext("%(count)s card", "%(count)s cards", position.stock)),
            discards: counted(position.discards, ngettext("%(count)s card", "%(count)s cards", position.discards)),
          }),
        ),
        position.pickUp > 0
          ? h(
              "p",
              { class: "pending" },
              interpolate(gettext("Pick-up waiting: %(count)s."), { count: position.pickUp }),
            )
          : null,
      ),
      h(
        "section",
        { class: "seats replay-hands", "aria-label": gettext("Every hand") },
        h(
          "ol",
          {},
          position.hands.map((hand, seat) =>
            h(
              "li",
              { key: seat, class: "seat" },
              h("span", { class: "seat-name" }, name(seat)),
              cardRow(
                hand.filter((code) => code !== null),
                gettext("no cards"),
              ),
              h(
                "span",
                { class: "score" },
                counted(position.scores[seat], ngettext("%(count)s point", "%(count)s points", position.scores[seat])),
              ),
            ),
          ),
        ),
      ),
    );
  }

  /** @param {AbbottPosition} position */
  function abbottTable(position) {
    /** @type {TableContext} */
    const context = { name, send: () => {}, busy: true, mySeat: null };
    return h(
      "div",
      { class: "board abbott" },
      grid({ grid: position.grid, pieces: position.pieces }, context),
      h(
        "section",
        { class: "seats", "aria-label": gettext("Seats") },
        h(
          "ol",
          {},
          position.cards.map((taken, seat) =>
            h(
              "li",
              { key: seat, class: "seat" },
              h("span", { class: "seat-name" }, name(seat)),
              h("span", { class: "taken" }, gettext("Cards:"), " ", cardRow(taken, gettext("none yet"))),
              h(
                "span",
                { class: "score" },
                counted(position.scores[seat], ngettext("%(count)s point", "%(count)s points", position.scores[seat])),
              ),
            ),
          ),
        ),
      ),
    );
  }

  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLSelectElement || event.altKey || event.ctrlKey || event.metaKey) {
      return;
    }
    const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: all.length - 1 };
    const to = /** @type {Record<string, number>} */ (moves)[event.key];
    if (to !== undefined) {
      event.preventDefault();
      go(to);
    }
  });
  draw();
}

whenSignedIn(root, open);
