// A seat link, /play/seat/<secret>: a guest's tables in an online tournament, without an account
// of their own making. The secret is a token of scope `seat` (docs/api.md, "Seat links"): it reads
// the guest's own feed and plays the matches where the guest holds a seat, nothing else. It is
// kept in the address, never in this browser's storage, so it does not sign anyone in or out.

import { Api, ApiError } from "./api.js";
import { byId, fill, h } from "./dom.js";
import { follow } from "./sse.js";
import { mountTable } from "./table.js";

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
    return { match: event.data.match, label: `Round ${event.data.round}, table ${event.data.table}` };
  }
  if (event.type === "match_started" && event.data.match !== null) {
    return { match: event.data.match, label: `Match ${event.data.match}` };
  }
  return null;
}

async function start() {
  /** @type {{username: string}} */
  let me;
  try {
    me = await api.get("/players/me/");
  } catch (failure) {
    const words =
      failure instanceof ApiError && failure.status === 401
        ? "This seat link is not valid (any more). Ask the tournament desk for your table's link."
        : failure instanceof ApiError
          ? failure.describe()
          : String(failure);
    fill(root, h("h1", {}, "Seat link"), h("p", { class: "error", role: "alert" }, words));
    return;
  }

  const where = h("p", { class: "where-seated" });
  const next = h("p", { class: "next-table", role: "status" });
  const holder = h("div", { class: "seat-table" });
  fill(root, h("header", { class: "seat-header" }, h("h1", {}, `Playing as ${me.username}`), where, next), holder);

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
    where.textContent = chosen.label;
    next.textContent = "";
    const section = h("section", { class: "table-root" });
    fill(holder, section);
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
    } else {
      fill(
        next,
        `Your next table is ready (${newest.label}). `,
        h("button", { type: "button", onclick: () => showTable(newest) }, "Go to it"),
      );
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
    fill(
      holder,
      h("p", { class: "error", role: "alert" }, failure instanceof ApiError ? failure.describe() : String(failure)),
    );
  }
  const newest = seatings.at(-1);
  if (newest) {
    showTable(newest);
  } else {
    fill(holder, h("p", {}, "Your table has not been seated yet. This page shows it as soon as the round starts."));
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
