// The state of one match's table, and how it changes: a reducer from what happens (a view read,
// events from the stream, a move sent, answered or refused, the connection lost and back) to the
// next state, and the words the page shows for a state. No DOM and no network here: the
// controller (tablecontroller.js) feeds it, the page (table.js) draws it, and node --test checks it.

import { gettext, interpolate } from "./i18n.js";
import { seatNames } from "./moves.js";

/** @typedef {import("../../types/api").View} View */
/** @typedef {import("../../types/api").Action} Action */
/** @typedef {import("../../types/api").MatchEvent} MatchEvent */
/** @typedef {"connecting" | "live" | "reconnecting" | "stopped"} Connection */

/**
 * A write on its way: a move, or start / join / resign. `key` is its Idempotency-Key, the same
 * on every retry; `retrying` once a try failed for want of the network or a busy server.
 *
 * @typedef {object} Pending
 * @property {string} path under the match, e.g. "moves/"
 * @property {Record<string, unknown>} body
 * @property {string} key
 * @property {boolean} retrying
 */

/**
 * @typedef {object} TableState
 * @property {number} matchId
 * @property {View | null} view the newest view read (never replaced by an older one)
 * @property {number} lastSeq the newest match event handled
 * @property {MatchEvent[]} log the events, oldest first (the newest LOG_LIMIT)
 * @property {Connection} connection the match's stream
 * @property {boolean} online what the browser says of its network
 * @property {Pending | null} pending
 * @property {string} error the last refusal, in the server's words (or ours)
 * @property {boolean} confirmingResign
 * @property {boolean} screen the big-screen mode
 * @property {boolean} muted
 * @property {boolean} motion cards glide (not when the person asked their system for less motion)
 */

/**
 * @typedef {{type: "view", view: View}
 *   | {type: "events", events: MatchEvent[]}
 *   | {type: "connection", connection: Connection}
 *   | {type: "online", online: boolean}
 *   | {type: "sending", path: string, body: Record<string, unknown>, key: string}
 *   | {type: "retrying"}
 *   | {type: "answered", view: View}
 *   | {type: "refused", code: string, message: string}
 *   | {type: "failed", message: string}
 *   | {type: "confirm-resign", open: boolean}
 *   | {type: "screen", on: boolean}
 *   | {type: "mute", on: boolean}} TableAction
 */

// Log entries kept on the page; older ones are dropped from view (the API keeps them all).
export const LOG_LIMIT = 400;

// Refusals that mean the table moved on before the move arrived: nothing was played.
const OVERTAKEN = new Set(["stale_version", "not_your_turn"]);

/**
 * @typedef {object} TableSettings what the page knows before the first view
 * @property {boolean} [screen] the big screen asked for in the address
 * @property {boolean} [muted] the Sound switch as this browser remembers it
 * @property {boolean} [online] what the browser says of its network
 * @property {boolean} [reducedMotion] the system asks for less motion: nothing glides
 */

/**
 * @param {number} matchId
 * @param {TableSettings} [settings]
 * @returns {TableState}
 */
export function initialState(matchId, settings = {}) {
  return {
    matchId,
    view: null,
    lastSeq: 0,
    log: [],
    connection: "connecting",
    online: settings.online ?? true,
    pending: null,
    error: "",
    confirmingResign: false,
    screen: settings.screen ?? false,
    muted: settings.muted ?? false,
    motion: !settings.reducedMotion,
  };
}

/**
 * @param {TableState} state
 * @param {TableAction} action
 * @returns {TableState}
 */
export function reduce(state, action) {
  switch (action.type) {
    case "view":
      // Answers can overtake each other: an older view than the one shown is dropped.
      return state.view !== null && action.view.version < state.view.version ? state : { ...state, view: action.view };
    case "events": {
      // At least once, in order: an event at or below the cursor was handled already.
      const fresh = action.events.filter((event) => event.seq > state.lastSeq).sort((a, b) => a.seq - b.seq);
      if (fresh.length === 0) {
        return state;
      }
      return { ...state, lastSeq: fresh[fresh.length - 1].seq, log: [...state.log, ...fresh].slice(-LOG_LIMIT) };
    }
    case "connection":
      return { ...state, connection: action.connection };
    case "online":
      return { ...state, online: action.online };
    case "sending":
      return {
        ...state,
        pending: { path: action.path, body: action.body, key: action.key, retrying: false },
        error: "",
        confirmingResign: false,
      };
    case "retrying":
      return state.pending === null ? state : { ...state, pending: { ...state.pending, retrying: true } };
    case "answered":
      return reduce({ ...state, pending: null }, { type: "view", view: action.view });
    case "refused":
      return {
        ...state,
        pending: null,
        error: OVERTAKEN.has(action.code)
          ? gettext(
              "The table moved on before your move arrived, so it was not played. Here is the table as it is now.",
            )
          : action.message,
      };
    case "failed":
      return { ...state, error: action.message };
    case "confirm-resign":
      return { ...state, confirmingResign: action.open };
    case "screen":
      return { ...state, screen: action.on };
    case "mute":
      return { ...state, muted: action.on };
  }
}

// --- what follows from a state ------------------------------------------------------------------

/** @param {TableState} state */
export function isOver(state) {
  return state.view !== null && (state.view.status === "finished" || state.view.status === "abandoned");
}

/**
 * The signed-in player's seat, or null for a spectator.
 *
 * @param {TableState} state
 * @returns {number | null}
 */
export function mySeat(state) {
  return state.view?.you?.seat ?? null;
}

/**
 * The seat's turn is now, with moves to make and nothing on its way.
 *
 * @param {TableState} state
 */
export function myTurn(state) {
  const view = state.view;
  return view !== null && view.status === "active" && view.to_move === mySeat(state) && view.legal_moves.length > 0;
}

/**
 * Whether the page is cut off: the browser says it is offline, or the stream is reconnecting.
 *
 * @param {TableState} state
 */
export function cutOff(state) {
  return !state.online || state.connection === "reconnecting";
}

/**
 * The moves' buttons wait while a write is on its way.
 *
 * @param {TableState} state
 */
export function busy(state) {
  return state.pending !== null;
}

/**
 * Whose turn it is, in a sentence (the page's live region: a screen reader says it when it
 * changes). A move on its way, or a table cut off from the server, says so rather than "Your turn".
 *
 * @param {TableState} state
 * @returns {string}
 */
export function statusLine(state) {
  const view = state.view;
  if (view === null) {
    return gettext("Loading the table…");
  }
  const seat = mySeat(state);
  if (state.pending !== null && state.pending.path === "moves/") {
    return state.pending.retrying || !state.online
      ? gettext("Your move is kept and will be sent again when the connection is back.")
      : gettext("Sending your move…");
  }
  const watching = seat === null ? `${gettext("You are watching.")} ` : "";
  switch (view.status) {
    case "waiting":
      return watching + gettext("Waiting for players.");
    case "finished":
      return watching + gettext("The match is over.");
    case "abandoned":
      return watching + gettext("The match was abandoned.");
  }
  if (view.to_move === null) {
    return watching + gettext("Between deals.");
  }
  if (view.to_move === seat) {
    if (cutOff(state)) {
      return gettext("Your turn, once the connection is back.");
    }
    return view.legal_moves.length > 0 ? gettext("Your turn.") : gettext("Your turn (waiting for the server).");
  }
  return watching + interpolate(gettext("%(player)s to play."), { player: seatNames(view)(view.to_move) });
}

/**
 * The connection in words: "Live" only while the stream is open and the browser online.
 *
 * @param {TableState} state
 * @returns {string}
 */
export function connectionWords(state) {
  if (state.connection === "stopped") {
    return "";
  }
  if (cutOff(state)) {
    return gettext("Connection lost: reconnecting…");
  }
  return state.connection === "live" ? gettext("Live") : gettext("Connecting…");
}

/**
 * The connection's state for the page's data-state: "reconnecting" whenever it is cut off.
 *
 * @param {TableState} state
 * @returns {Connection}
 */
export function connectionState(state) {
  return state.connection !== "stopped" && cutOff(state) ? "reconnecting" : state.connection;
}

/**
 * The tab's title: "(Your turn)" before it while the seat has a move to make.
 *
 * @param {TableState} state
 * @param {string} base the page's own title
 */
export function documentTitle(state, base) {
  return myTurn(state) ? `${gettext("(Your turn)")} ${base}` : base;
}

/**
 * Whether going from `before` to `after` gave the seat its turn: the moment for the sound. A
 * new turn is a new version with the seat to move where it was not, or a new deal.
 *
 * @param {TableState} before
 * @param {TableState} after
 */
export function turnBegan(before, after) {
  return myTurn(after) && !myTurn(before);
}

/**
 * The events added between two states: what the page animates and sounds.
 *
 * @param {TableState} before
 * @param {TableState} after
 * @returns {MatchEvent[]}
 */
export function newEvents(before, after) {
  return after.lastSeq === before.lastSeq ? [] : after.log.filter((event) => event.seq > before.lastSeq);
}
