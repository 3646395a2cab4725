// One match's table, live, without a page: reads the view, follows the match's stream (and the
// caller's feed for what concerns the match before it starts), posts the moves with
// `expected_version` and an Idempotency-Key kept through every retry, and keeps a TableState
// (tablestate.js) current. The network comes in through `transport`, so that a test can play
// the server; the page draws each new state.

import { ApiError } from "./api.js";
import { initialState, isOver, reduce } from "./tablestate.js";

/** @typedef {import("../../types/api").View} View */
/** @typedef {import("../../types/api").Action} Action */
/** @typedef {import("../../types/api").MatchEvent} MatchEvent */
/** @typedef {import("../../types/api").FeedEvent} FeedEvent */
/** @typedef {import("./tablestate.js").TableState} TableState */
/** @typedef {import("./tablestate.js").TableAction} TableAction */
/** @typedef {import("./tablestate.js").Connection} Connection */
/** @typedef {{stop: () => void}} Follower */

/**
 * What the table needs of the server.
 *
 * @typedef {object} Transport
 * @property {() => Promise<View>} readView `GET /matches/{id}/`
 * @property {(path: string, body: Record<string, unknown>, options: {key: string, onRetry: () => void}) => Promise<any>} write
 *   a POST under the match, sent again with the same key while the network is down or the server
 *   asks to retry; an ApiError when refused
 * @property {() => string} newKey a fresh Idempotency-Key
 * @property {(handlers: MatchHandlers) => Follower} followMatch the match's stream
 * @property {(onEvent: (event: FeedEvent) => void) => Follower} followFeed the caller's feed, from now on
 */

/**
 * @typedef {object} MatchHandlers
 * @property {() => number} cursor the last seq handled
 * @property {(event: MatchEvent) => void} onEvent
 * @property {(connection: Connection) => void} onState
 * @property {(failure: ApiError) => void} onRefused
 * @property {() => boolean} finished
 */

/**
 * @typedef {object} TableController
 * @property {() => TableState} state
 * @property {(move: Action) => Promise<void>} play
 * @property {() => Promise<void>} start
 * @property {(seat: number) => Promise<void>} join
 * @property {() => Promise<void>} resign
 * @property {(open: boolean) => void} confirmResign
 * @property {(on: boolean) => void} setScreen
 * @property {(on: boolean) => void} setMuted and remember it in this browser
 * @property {(online: boolean) => void} setOnline
 * @property {() => Promise<void>} refresh
 * @property {() => void} stop
 */

// Where this browser remembers the Sound switch.
export const MUTED_KEY = "switch.play.muted";

/**
 * @typedef {Pick<Storage, "getItem" | "setItem">} Preferences this browser's (localStorage)
 */

/**
 * @param {object} options
 * @param {number} options.matchId
 * @param {Transport} options.transport
 * @param {(state: TableState, before: TableState) => void} options.onChange called after every change
 * @param {Omit<import("./tablestate.js").TableSettings, "muted">} [options.settings]
 * @param {Preferences} [options.preferences] where the Sound switch is kept: a browser that
 *   never chose starts muted when its system asks for less motion
 * @returns {TableController}
 */
export function createTableController({ matchId, transport, onChange, settings = {}, preferences }) {
  const kept = preferences?.getItem(MUTED_KEY) ?? null;
  const muted = kept === null ? (settings.reducedMotion ?? false) : kept === "true";
  let state = initialState(matchId, { ...settings, muted });

  /** @param {TableAction} action */
  function dispatch(action) {
    const before = state;
    state = reduce(state, action);
    if (state !== before) {
      onChange(state, before);
    }
  }

  // --- reading -----------------------------------------------------------------------------------

  /** @type {Promise<void> | null} */
  let reading = null;
  let readAgain = false;

  /** Read the view again; calls while a read is on its way make one more read after it. */
  function refresh() {
    if (reading) {
      readAgain = true;
      return reading;
    }
    reading = (async () => {
      do {
        readAgain = false;
        try {
          dispatch({ type: "view", view: await transport.readView() });
        } catch (failure) {
          if (!(failure instanceof ApiError)) {
            throw failure;
          }
          if (failure.status !== 0) {
            dispatch({ type: "failed", message: failure.describe() }); // offline: the stream says so
          }
        }
      } while (readAgain);
      reading = null;
      if (isOver(state)) {
        feed.stop();
      }
    })();
    return reading;
  }

  // --- writing -----------------------------------------------------------------------------------

  /**
   * A POST under the match whose answer is the view (a move's answer holds it); one at a time.
   *
   * @param {string} path
   * @param {Record<string, unknown>} body
   */
  async function write(path, body) {
    if (state.pending !== null || state.view === null) {
      return;
    }
    const key = transport.newKey();
    dispatch({ type: "sending", path, body, key });
    try {
      const answer = await transport.write(path, body, { key, onRetry: () => dispatch({ type: "retrying" }) });
      dispatch({ type: "answered", view: path === "moves/" ? answer.view : answer });
    } catch (failure) {
      if (!(failure instanceof ApiError)) {
        throw failure;
      }
      dispatch({ type: "refused", code: failure.code, message: failure.describe() });
      await refresh();
    }
  }

  // --- following ---------------------------------------------------------------------------------

  const stream = transport.followMatch({
    cursor: () => state.lastSeq,
    onEvent(event) {
      dispatch({ type: "events", events: [event] });
      refresh(); // the events say what happened; the view says what the seat may do now
    },
    onState(connection) {
      const wasAway = state.connection === "reconnecting";
      dispatch({ type: "connection", connection });
      if (wasAway && connection === "live") {
        refresh();
      }
    },
    onRefused(failure) {
      dispatch({ type: "failed", message: failure.describe() });
    },
    finished: () => isOver(state),
  });
  // Before the start the match's stream is quiet about seats taken (the view tells): the feed's
  // player_joined and match_started say when to read it. A your_turn carries a view, but as
  // stored with the event (on PostgreSQL with its keys reordered), so the match's own is read.
  const feed = transport.followFeed((event) => {
    if (event.match === matchId) {
      refresh();
    }
  });

  refresh();

  return {
    state: () => state,
    play: (move) => write("moves/", { ...move, expected_version: state.view?.version }),
    start: () => write("start/", {}),
    join: (seat) => write("join/", { seat }),
    resign: () => write("resign/", {}),
    confirmResign: (open) => dispatch({ type: "confirm-resign", open }),
    setScreen: (on) => dispatch({ type: "screen", on }),
    setMuted(on) {
      preferences?.setItem(MUTED_KEY, String(on));
      dispatch({ type: "mute", on });
    },
    setOnline(online) {
      dispatch({ type: "online", online });
      if (online) {
        refresh(); // the stream reconnects by itself (sse.js listens for "online" too)
      }
    },
    refresh,
    stop() {
      stream.stop();
      feed.stop();
    },
  };
}
