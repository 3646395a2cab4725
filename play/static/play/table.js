// One match's table, live: the view from `GET /matches/{id}/`, the events from the match's
// stream (resumed with Last-Event-ID), the caller's feed for what concerns the match before it
// starts, and the legal moves posted back with `expected_version` and an Idempotency-Key.
//
// The root element carries the contract's testing hooks, kept current: data-match, data-version,
// data-to-move, data-status.

import { abbottBoard } from "./abbott.js";
import { ApiError } from "./api.js";
import { fill, h, plural } from "./dom.js";
import { describe } from "./log.js";
import { seatNames } from "./moves.js";
import { resultPanel } from "./result.js";
import { sheddingBoard } from "./shedding.js";
import { follow } from "./sse.js";

/** @typedef {import("../../types/api").View} View */
/** @typedef {import("../../types/api").Action} Action */
/** @typedef {import("../../types/api").MatchEvent} MatchEvent */
/** @typedef {import("../../types/api").FeedEvent} FeedEvent */
/** @typedef {import("../../types/api").MoveResult} MoveResult */
/** @typedef {import("./api.js").Api} Api */
/** @typedef {import("./moves.js").TableContext} TableContext */

// Log entries kept on the page; older ones are dropped from view (the API keeps them all).
const LOG_LIMIT = 400;

/**
 * @typedef {object} TableOptions
 * @property {Api} api
 * @property {number} matchId
 * @property {boolean} [lobbyLink] show the way back to the lobby (not on a seat link's page)
 * @property {(view: View) => void} [onView] told of every new view
 */

/**
 * Fill `root` with the table of a match and keep it live until `stop()`.
 *
 * @param {HTMLElement} root
 * @param {TableOptions} options
 */
export function mountTable(root, options) {
  const { api, matchId } = options;
  root.dataset.match = String(matchId);
  root.classList.add("table");

  const status = h("p", { class: "status", role: "status", "aria-live": "polite" });
  const clock = h("span", { class: "clock" });
  const connection = h("span", { class: "connection", role: "status" });
  const error = h("p", { class: "error", role: "alert" });
  const title = h("h1", {}, `Match ${matchId}`);
  const tools = h("div", { class: "tools" });
  const board = h("div", { class: "board-wrap" });
  const waiting = h("div", { class: "waiting-wrap" });
  const result = h("div", { class: "result-wrap" });
  const log = h("ol", { class: "log" });
  const logBox = h("div", { class: "log-box", tabindex: "0", "aria-label": "What happened, oldest first" }, log);
  fill(
    root,
    h(
      "header",
      { class: "table-header" },
      title,
      h("p", { class: "turn-line" }, status, clock),
      h("p", { class: "where" }, connection, tools),
    ),
    h(
      "div",
      { class: "table-body" },
      h("div", { class: "table-main" }, error, result, waiting, board),
      h("section", { class: "log-section", "aria-label": "What happened" }, h("h2", {}, "What happened"), logBox),
    ),
  );

  /** @type {View | null} */
  let view = null;
  let lastSeq = 0;
  let busy = false;
  let confirmingResign = false;
  /** @type {Promise<void> | null} */
  let refreshing = null;
  let refreshAgain = false;
  /** @type {MatchEvent[]} */
  const pendingLog = [];

  const over = () => view !== null && (view.status === "finished" || view.status === "abandoned");

  // --- reading ---------------------------------------------------------------------------------

  /** Read the view again; calls while a read is on its way make one more read after it. */
  function refresh() {
    if (refreshing) {
      refreshAgain = true;
      return refreshing;
    }
    refreshing = (async () => {
      do {
        refreshAgain = false;
        try {
          show(await api.get(`/matches/${matchId}/`));
        } catch (failure) {
          if (failure instanceof ApiError && failure.status !== 0) {
            say(failure.describe());
          }
        }
      } while (refreshAgain);
      refreshing = null;
    })();
    return refreshing;
  }

  /**
   * Show a view, unless an older one than what is shown (answers can overtake each other).
   *
   * @param {View} next
   */
  function show(next) {
    if (view !== null && next.version < view.version) {
      return;
    }
    view = next;
    render();
    options.onView?.(next);
    if (over()) {
      feed?.stop();
    }
  }

  /** @param {string} message */
  function say(message) {
    error.textContent = message;
  }

  // --- moving ----------------------------------------------------------------------------------

  /** @param {Action} move */
  async function send(move) {
    if (busy || view === null) {
      return;
    }
    busy = true;
    say("");
    render();
    try {
      /** @type {MoveResult} */
      const answer = await api.post(`/matches/${matchId}/moves/`, { ...move, expected_version: view.version });
      busy = false;
      show(answer.view);
    } catch (failure) {
      busy = false;
      if (failure instanceof ApiError && (failure.code === "stale_version" || failure.code === "not_your_turn")) {
        say("The table moved on before your move arrived, so it was not played. Here is the table as it is now.");
      } else if (failure instanceof ApiError) {
        say(failure.describe());
      } else {
        throw failure;
      }
      render();
      await refresh();
    }
  }

  /**
   * A write that is not a move (start, join, resign): the answer is the new view.
   *
   * @param {string} path
   * @param {unknown} [body]
   */
  async function write(path, body = {}) {
    busy = true;
    say("");
    render();
    try {
      show(await api.post(`/matches/${matchId}/${path}`, body));
    } catch (failure) {
      if (!(failure instanceof ApiError)) {
        throw failure;
      }
      say(failure.describe());
    } finally {
      busy = false;
      render();
    }
  }

  // --- drawing the page ------------------------------------------------------------------------

  function render() {
    if (view === null) {
      return;
    }
    root.dataset.version = String(view.version);
    root.dataset.toMove = view.to_move === null ? "" : String(view.to_move);
    root.dataset.status = view.status;
    root.dataset.game = view.game;
    const name = seatNames(view);
    const mySeat = view.you?.seat ?? null;
    /** @type {TableContext} */
    const context = { name, send, busy, mySeat };

    const keep = focusKey();
    title.textContent = `Match ${view.id} · ${view.ruleset}`;
    const line = statusLine(view, name, mySeat);
    if (status.textContent !== line) {
      status.textContent = line; // a live region: said again only when it changes
    }
    fill(tools, toolButtons(view, mySeat));
    fill(waiting, view.status === "waiting" ? waitingRoom(view, context) : null);
    fill(
      board,
      view.status === "waiting"
        ? null
        : view.game === "shedding"
          ? sheddingBoard(view, context)
          : abbottBoard(view, context),
    );
    fill(result, view.result ? resultPanel(view, name) : null);
    tick();
    restoreFocus(keep);
    flushLog();
  }

  /** @returns {string | null} what had the focus: a move, or another control by its id */
  function focusKey() {
    const active = document.activeElement;
    if (!(active instanceof HTMLElement) || !root.contains(active)) {
      return null;
    }
    return active.dataset.move ?? (active.id ? `#${active.id}` : "[data-move]");
  }

  /** @param {string | null} key */
  function restoreFocus(key) {
    if (key === null || (document.activeElement instanceof HTMLElement && root.contains(document.activeElement))) {
      return;
    }
    const moves = Array.from(root.querySelectorAll("button")).filter((button) => button.dataset.move !== undefined);
    /** @type {HTMLElement} */
    const target = key.startsWith("#")
      ? (Array.from(root.querySelectorAll("button")).find((button) => button.id === key.slice(1)) ?? moves[0] ?? status)
      : (moves.find((button) => button.dataset.move === key) ?? moves[0] ?? status);
    if (target === status) {
      status.tabIndex = -1;
    }
    target.focus({ preventScroll: true });
  }

  /**
   * @param {View} current
   * @param {(seat: number | null | undefined) => string} name
   * @param {number | null} mySeat
   */
  function statusLine(current, name, mySeat) {
    const watching = mySeat === null ? "You are watching. " : "";
    switch (current.status) {
      case "waiting":
        return `${watching}Waiting for players.`;
      case "finished":
        return `${watching}The match is over.`;
      case "abandoned":
        return `${watching}The match was abandoned.`;
      default:
        if (current.to_move === null) {
          return `${watching}Between deals.`;
        }
        if (current.to_move === mySeat) {
          return current.legal_moves.length > 0 ? "Your turn." : "Your turn (waiting for the server).";
        }
        return `${watching}${name(current.to_move)} to play.`;
    }
  }

  /** The turn clock, counted down by the server's time. */
  function tick() {
    const deadline = view?.turn_deadline ?? null;
    if (deadline === null || view?.status !== "active") {
      clock.textContent = "";
      return;
    }
    const seconds = Math.max(0, Math.round((Date.parse(deadline) - api.now()) / 1000));
    clock.textContent = ` Clock: ${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")} left.`;
    clock.classList.toggle("urgent", seconds <= 10);
  }

  /**
   * @param {View} current
   * @param {number | null} mySeat
   */
  function toolButtons(current, mySeat) {
    const screen = root.classList.contains("screen");
    /** @type {HTMLElement[]} */
    const buttons = [];
    if (options.lobbyLink !== false) {
      buttons.push(h("a", { href: "/play/" }, "Lobby"));
    }
    buttons.push(
      h(
        "button",
        {
          type: "button",
          id: "screen-toggle",
          "aria-pressed": screen ? "true" : "false",
          onclick: () => toggleScreen(),
        },
        "Big screen",
      ),
    );
    if (mySeat !== null && (current.status === "active" || current.status === "waiting")) {
      const leave = current.status === "waiting" ? "Leave" : "Resign";
      if (confirmingResign) {
        buttons.push(
          h("span", { class: "confirm" }, `${leave} this match? `),
          h(
            "button",
            {
              type: "button",
              id: "resign-yes",
              disabled: busy,
              onclick: () => {
                confirmingResign = false;
                write("resign/");
              },
            },
            `Yes, ${leave.toLowerCase()}`,
          ),
          h(
            "button",
            {
              type: "button",
              id: "resign-no",
              onclick: () => {
                confirmingResign = false;
                render();
              },
            },
            "No",
          ),
        );
      } else {
        buttons.push(
          h(
            "button",
            {
              type: "button",
              id: "resign",
              onclick: () => {
                confirmingResign = true;
                render();
              },
            },
            leave,
          ),
        );
      }
    }
    return buttons;
  }

  function toggleScreen() {
    const screen = root.classList.toggle("screen");
    const url = new URL(window.location.href);
    if (screen) {
      url.searchParams.set("screen", "1");
    } else {
      url.searchParams.delete("screen");
    }
    window.history.replaceState(null, "", url);
    render();
  }

  /**
   * Before the start: who sits where, and what the caller can do about it.
   *
   * @param {View} current
   * @param {TableContext} context
   */
  function waitingRoom(current, context) {
    const open = current.seats.filter((seat) => !seat.player && !seat.bot);
    const mine = context.mySeat !== null;
    const creator = current.you !== null && current.seats[context.mySeat ?? -1]?.player === current.created_by;
    return h(
      "section",
      { class: "waiting" },
      h("h2", {}, "Seats"),
      h(
        "ol",
        {},
        current.seats.map((seat) =>
          h(
            "li",
            {},
            seat.player
              ? `${seat.player}${seat.seat === context.mySeat ? " (you)" : ""}`
              : seat.bot
                ? context.name(seat.seat)
                : "Open",
            !mine && !seat.player && !seat.bot
              ? [
                  " ",
                  h(
                    "button",
                    { type: "button", disabled: busy, onclick: () => write("join/", { seat: seat.seat }) },
                    `Take seat ${seat.seat + 1}`,
                  ),
                ]
              : null,
          ),
        ),
      ),
      open.length > 0
        ? h("p", {}, `Waiting for ${plural(open.length, "player")}. Share this page's address to invite someone.`)
        : null,
      creator && open.length === 0
        ? h(
            "button",
            { type: "button", id: "start", disabled: busy, onclick: () => write("start/") },
            "Start the match",
          )
        : null,
    );
  }

  // --- the log ---------------------------------------------------------------------------------

  /** @param {MatchEvent} event */
  function note(event) {
    if (event.seq <= lastSeq) {
      return; // seen already (a stream resumed from an older cursor)
    }
    lastSeq = event.seq;
    pendingLog.push(event);
  }

  /** Add the events that arrived since to the log, in words (names come from the view). */
  function flushLog() {
    if (view === null || pendingLog.length === 0) {
      return;
    }
    const name = seatNames(view);
    const mySeat = view.you?.seat ?? null;
    const atBottom = logBox.scrollTop + logBox.clientHeight >= logBox.scrollHeight - 8;
    for (const event of pendingLog.splice(0)) {
      const sentence = describe(event, name, mySeat);
      if (sentence !== null) {
        log.append(h("li", { "data-seq": event.seq, class: `event ${event.type}` }, sentence));
      }
    }
    while (log.childElementCount > LOG_LIMIT) {
      log.firstElementChild?.remove();
    }
    if (atBottom) {
      logBox.scrollTop = logBox.scrollHeight;
    }
  }

  // --- following -------------------------------------------------------------------------------

  const stream = follow({
    url: `/api/v1/matches/${matchId}/stream/`,
    token: api.token,
    cursor: () => lastSeq,
    onMessage(message) {
      note(JSON.parse(message.data));
      refresh();
    },
    onState(state) {
      const words = {
        connecting: "Connecting…",
        live: "Live",
        reconnecting: "Connection lost: reconnecting…",
        stopped: "",
      }[state];
      if (connection.textContent !== words) {
        connection.textContent = words;
      }
      const wasAway = connection.dataset.state === "reconnecting";
      connection.dataset.state = state;
      if (wasAway && state === "live") {
        refresh(); // the view as it is now (the events come on the stream)
      }
    },
    onRefused(failure) {
      say(failure.describe());
    },
    finished: over,
  });

  /** @type {{stop: () => void} | null} */
  let feed = null;
  api.feedEnd().then(
    (end) => {
      if (over()) {
        return;
      }
      let cursor = end;
      feed = follow({
        url: "/api/v1/players/me/stream/",
        token: api.token,
        cursor: () => cursor,
        onMessage(message) {
          /** @type {FeedEvent} */
          const event = JSON.parse(message.data);
          cursor = Math.max(cursor, event.seq);
          if (event.match !== matchId) {
            return;
          }
          // A your_turn carries the view, but as stored with the event: on PostgreSQL its objects
          // come back with their keys reordered (jsonb), so the moves' data-move would differ from
          // the same moves read from the match. The match's own view is read instead.
          refresh();
        },
      });
    },
    () => {}, // no feed (a spectator's is no use here anyway): the match's stream suffices
  );

  const timer = setInterval(tick, 1000);
  if (new URL(window.location.href).searchParams.has("screen")) {
    root.classList.add("screen");
  }
  refresh();

  return {
    refresh,
    stop() {
      stream.stop();
      feed?.stop();
      clearInterval(timer);
    },
  };
}
