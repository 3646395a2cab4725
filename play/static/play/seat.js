// A seat link, /play/seat/<secret>: a guest's tables in an online tournament, without an account
// of their own making; in an offline one (real cards), the guest's table this round, the form to
// report its result, a report to confirm or dispute, and the check-in (offlinetable.js). The secret is a token of scope `seat` (docs/api.md, "Seat links"): it reads
// the guest's own feed and plays the matches where the guest holds a seat, nothing else. It is
// kept in the address, never in this browser's storage, so it does not sign anyone in or out.
// The page's header is drawn with Preact; the table below it is the table page's own (table.js).

import { Api, ApiError } from "./api.js";
import { gettext, interpolate } from "./i18n.js";
import { mountOfflineTable } from "./offlinetable.js";
import { shortName } from "./outbox.js";
import { byId } from "./signin.js";
import { follow } from "./sse.js";
import { mountTable } from "./table.js";
import { h, render } from "./vendor/preact.mjs";

/** @typedef {import("../../types/api").FeedEvent} FeedEvent */
/** @typedef {import("../../types/api").View} View */
/** @typedef {{match: number, label: string}} Seating */

const root = byId("seat");
const secret = decodeURIComponent(window.location.pathname.replace(/\/+$/, "").split("/").pop() ?? "");
const api = new Api(secret);

/**
 * The table a feed event seats the guest at, if any.
 *
 * @param {FeedEvent} event
 * @returns {Seating | null}
 */
function seating(event) {
  if (event.type === "round_seated" && event.data.match !== null) {
    const label = interpolate(gettext("Round %(round)s, table %(table)s"), {
      round: event.data.round,
      table: event.data.table,
    });
    return { match: event.data.match, label };
  }
  if (event.type === "match_started" && event.data.match !== null) {
    return { match: event.data.match, label: interpolate(gettext("Match %(id)s"), { id: event.data.match }) };
  }
  return null;
}

/**
 * The page's header: whose seat, which table, and the next table when one waits.
 *
 * @param {{player: string, where: string, next: Seating | null, words: string, alert: boolean, go: (seating: Seating) => void}} shown
 */
function header({ player, where, next, words, alert, go }) {
  return h(
    "header",
    { class: "seat-header" },
    h("h1", {}, player ? interpolate(gettext("Playing as %(player)s"), { player }) : gettext("Seat link")),
    h("p", { class: "where-seated" }, where),
    h(
      "p",
      { class: "next-table", role: "status" },
      next === null
        ? null
        : [
            interpolate(gettext("Your next table is ready (%(table)s)."), { table: next.label }),
            " ",
            h("button", { type: "button", onClick: () => go(next) }, gettext("Go to it")),
          ],
    ),
    words ? h("p", alert ? { class: "error", role: "alert" } : {}, words) : null,
  );
}

async function start() {
  const top = document.createElement("div");
  const holder = document.createElement("div");
  holder.className = "seat-table";
  root.replaceChildren(top, holder);
  let player = ""; // the name people see, a guest's as the desk typed it
  let where = "";
  /** @type {Seating | null} */
  let next = null;
  let words = "";
  let alert = false;

  function draw() {
    render(header({ player, where, next, words, alert, go: showTable }), top);
  }

  /** @param {unknown} failure */
  function fail(failure) {
    words = failure instanceof ApiError ? failure.describe() : String(failure);
    alert = true;
    draw();
  }

  try {
    player = (await api.get("/players/me/")).name;
  } catch (failure) {
    if (failure instanceof ApiError && failure.status === 401) {
      fail(gettext("This seat link is not valid (any more). Ask the tournament desk for your table's link."));
    } else {
      fail(failure);
    }
    return;
  }

  /** @type {any[]} */
  const entries = await api.get("/tournaments/mine/").catch(() => []);
  if (entries[0]?.play === "offline") {
    mountOfflineTable(root, {
      api,
      storage: `switch.outbox.seat.${shortName(secret)}`,
      heading: interpolate(gettext("Playing as %(player)s"), { player }),
    });
    return;
  }

  /** @type {Seating[]} */
  const seatings = [];
  /** @type {{stop: () => void} | null} */
  let table = null;
  /** @type {View | null} */
  let shown = null;

  /** @param {Seating} chosen */
  function showTable(chosen) {
    table?.stop();
    shown = null;
    where = chosen.label;
    next = null;
    words = "";
    draw();
    const section = document.createElement("section");
    section.className = "table-root";
    holder.replaceChildren(section);
    table = mountTable(section, {
      api,
      matchId: chosen.match,
      lobbyLink: false,
      onView(view) {
        shown = view;
        offerNewest();
      },
    });
  }

  /** When a newer table waits: go to it if this match is over, else say so. */
  function offerNewest() {
    const newest = seatings.at(-1);
    if (!newest || shown === null || newest.match === shown.id) {
      return;
    }
    if (shown.status === "finished" || shown.status === "abandoned") {
      showTable(newest);
    } else if (next !== newest) {
      next = newest;
      draw();
    }
  }

  /** @param {FeedEvent} event */
  function take(event) {
    const found = seating(event);
    if (found && !seatings.some((known) => known.match === found.match)) {
      seatings.push(found);
      if (table === null) {
        showTable(found);
      } else {
        offerNewest();
      }
    }
  }

  let cursor = 0;
  try {
    /** @type {FeedEvent[]} */
    const history = await api.all("/players/me/events/?after=0&limit=500", 100_000);
    for (const event of history) {
      cursor = event.seq;
      const found = seating(event);
      if (found && !seatings.some((known) => known.match === found.match)) {
        seatings.push(found);
      }
    }
  } catch (failure) {
    fail(failure);
  }
  const newest = seatings.at(-1);
  if (newest) {
    showTable(newest);
  } else if (!alert) {
    words = gettext("Your table has not been seated yet. This page shows it as soon as the round starts.");
    draw();
  }
  follow({
    url: "/api/v1/players/me/stream/",
    token: secret,
    cursor: () => cursor,
    onMessage(message) {
      /** @type {FeedEvent} */
      const event = JSON.parse(message.data);
      cursor = Math.max(cursor, event.seq);
      take(event);
    },
  });
}

start();
