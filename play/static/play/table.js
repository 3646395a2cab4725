// One match's table on the page: the controller (tablecontroller.js) keeps its state, and each
// new state is drawn with Preact, which changes only what changed — a focused button stays
// focused, and a card that moved glides (motion.js). A sound and the tab's title tell when it
// becomes your turn; the status line, a live region, tells screen readers.
//
// The root element carries the contract's testing hooks, kept current: data-match, data-version,
// data-to-move, data-status.

import { abbottBoard } from "./abbott.js";
import { ApiError, newKey } from "./api.js";
import { gettext, interpolate } from "./i18n.js";
import { describe } from "./log.js";
import { glide, reducedMotion, snapshot } from "./motion.js";
import { seatNames } from "./moves.js";
import { rematch } from "./playagain.js";
import { resultPanel } from "./result.js";
import { sheddingBoard } from "./shedding.js";
import { createSounds } from "./sound.js";
import { follow, followFeed } from "./sse.js";
import { createTableController } from "./tablecontroller.js";
import {
  busy,
  connectionState,
  connectionWords,
  documentTitle,
  isOver,
  mySeat,
  newEvents,
  statusLine,
  turnBegan,
} from "./tablestate.js";
import { h, render } from "./vendor/preact.mjs";

/** @typedef {import("../../types/api").View} View */
/** @typedef {import("./api.js").Api} Api */
/** @typedef {import("./moves.js").TableContext} TableContext */
/** @typedef {import("./tablestate.js").TableState} TableState */
/** @typedef {import("./tablecontroller.js").TableController} TableController */
/** @typedef {import("./tablecontroller.js").Transport} Transport */

/**
 * @typedef {object} TableOptions
 * @property {Api} api
 * @property {number} matchId
 * @property {boolean} [lobbyLink] show the way back to the lobby and Play again (not on a seat link's page)
 * @property {(view: View) => void} [onView] told of every new view
 */

/**
 * The server as the table reaches it: the API with the player's token.
 *
 * @param {Api} api
 * @param {number} matchId
 * @returns {Transport}
 */
export function apiTransport(api, matchId) {
  return {
    readView: () => api.get(`/matches/${matchId}/`),
    write: (path, body, options) => api.post(`/matches/${matchId}/${path}`, body, options),
    newKey,
    followMatch: (handlers) =>
      follow({
        url: `/api/v1/matches/${matchId}/stream/`,
        token: api.token,
        cursor: handlers.cursor,
        onMessage: (message) => handlers.onEvent(JSON.parse(message.data)),
        onState: handlers.onState,
        onRefused: handlers.onRefused,
        finished: handlers.finished,
      }),
    followFeed: (onEvent) => followFeed(api, onEvent), // none (a seat link's, offline): the stream suffices
  };
}

/**
 * Fill `root` with the table of a match and keep it live until `stop()`.
 *
 * @param {HTMLElement} root
 * @param {TableOptions} options
 * @returns {{stop: () => void}}
 */
export function mountTable(root, options) {
  const { api, matchId } = options;
  const baseTitle = document.title;
  const sounds = createSounds();
  root.dataset.match = String(matchId);
  root.classList.add("table");
  /** @type {{stage: "" | "sending" | "challenged", error: string}} */
  let again = { stage: "", error: "" };

  const table = createTableController({
    matchId,
    transport: apiTransport(api, matchId),
    settings: {
      screen: new URL(window.location.href).searchParams.has("screen"),
      online: navigator.onLine,
      reducedMotion: reducedMotion(),
    },
    preferences: localStorage,
    onChange(state, before) {
      draw(state, before);
      if (state.view !== null && state.view !== before.view) {
        options.onView?.(state.view);
      }
    },
  });

  /** @param {TableState} state */
  function playAgain(state) {
    const request = state.view === null ? null : rematch(state.view);
    if (request === null) {
      return;
    }
    again = { stage: "sending", error: "" };
    draw(table.state(), table.state());
    (async () => {
      if (request.kind === "match") {
        /** @type {View} */
        const created = await api.post("/matches/", request.body);
        await api.post(`/matches/${created.id}/start/`);
        window.location.assign(`/play/matches/${created.id}/`);
      } else {
        await api.post("/challenges/", request.body);
        again = { stage: "challenged", error: "" };
      }
    })()
      .catch((failure) => {
        if (!(failure instanceof ApiError)) {
          throw failure;
        }
        again = { stage: "", error: failure.describe() };
      })
      .finally(() => draw(table.state(), table.state()));
  }

  /**
   * Draw a state, gliding what moved since `before`, sounding and titling a new turn.
   *
   * @param {TableState} state
   * @param {TableState} before
   */
  function draw(state, before) {
    const hadFocus = root.contains(document.activeElement) && document.activeElement !== root;
    const places = snapshot(root);
    const added = newEvents(before, state);
    render(page(state), root);
    hooks(state);
    if (state.motion) {
      glide(root, places, (key) => origin(key, added, mySeat(state)));
    }
    document.title = documentTitle(state, baseTitle);
    if (!state.muted) {
      if (turnBegan(before, state)) {
        sounds.play("turn");
      } else if (added.some((event) => event.type === "play" || event.type === "move")) {
        sounds.play("card");
      } else if (added.some((event) => event.type === "draw")) {
        sounds.play("draw");
      }
    }
    if (hadFocus && !root.contains(document.activeElement)) {
      keepFocus();
    }
    if (added.length > 0) {
      const log = root.querySelector(".log-box");
      if (log && log.scrollTop + log.clientHeight >= log.scrollHeight - 80) {
        log.scrollTop = log.scrollHeight;
      }
    }
  }

  /** The focused control was played and is gone: the next move takes the focus, else the status. */
  function keepFocus() {
    const next = root.querySelector("button[data-move]:enabled") ?? root.querySelector(".status");
    if (next instanceof HTMLElement) {
      next.focus({ preventScroll: true });
    }
  }

  /** @param {TableState} state */
  function hooks(state) {
    const view = state.view;
    if (view === null) {
      return;
    }
    root.dataset.version = String(view.version);
    root.dataset.toMove = view.to_move === null ? "" : String(view.to_move);
    root.dataset.status = view.status;
    root.dataset.game = view.game;
    root.classList.toggle("screen", state.screen);
  }

  /** @param {TableState} state */
  function page(state) {
    const view = state.view;
    const name = view === null ? () => "" : seatNames(view);
    /** @type {TableContext} */
    const context = { name, send: (move) => table.play(move), busy: busy(state), mySeat: mySeat(state) };
    const title =
      view === null
        ? interpolate(gettext("Match %(id)s"), { id: matchId })
        : interpolate(gettext("Match %(id)s · %(ruleset)s"), { id: matchId, ruleset: view.ruleset });
    return [
      h(
        "header",
        { class: "table-header" },
        h("h1", {}, title),
        h(
          "p",
          { class: "turn-line" },
          h("span", { class: "status", role: "status", "aria-live": "polite", tabindex: "-1" }, statusLine(state)),
          clock(state),
        ),
        h(
          "p",
          { class: "where" },
          h(
            "span",
            { class: "connection", role: "status", "data-state": connectionState(state) },
            connectionWords(state),
          ),
          h("span", { class: "tools" }, tools(state)),
        ),
      ),
      h(
        "div",
        { class: "table-body" },
        h(
          "div",
          { class: "table-main" },
          h("p", { class: "error", role: "alert" }, state.error),
          view?.result ? resultPanel(view, name, ending(state)) : null,
          view?.status === "waiting" ? waitingRoom(view, context) : null,
          view === null || view.status === "waiting"
            ? null
            : view.game === "shedding"
              ? sheddingBoard(view, context)
              : abbottBoard(view, context),
        ),
        logSection(state, name),
      ),
    ];
  }

  /**
   * The turn clock, counted down by the server's time.
   *
   * @param {TableState} state
   */
  function clock(state) {
    const deadline = state.view?.turn_deadline ?? null;
    if (deadline === null || state.view?.status !== "active") {
      return h("span", { class: "clock" });
    }
    const seconds = Math.max(0, Math.round((Date.parse(deadline) - api.now()) / 1000));
    const left = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
    return h(
      "span",
      { class: `clock${seconds <= 10 ? " urgent" : ""}` },
      ` ${interpolate(gettext("Clock: %(left)s left."), { left })}`,
    );
  }

  /**
   * After the result: Play again (a seated player) and the replay.
   *
   * @param {TableState} state
   */
  function ending(state) {
    const view = state.view;
    if (view === null) {
      return null;
    }
    const canRematch = options.lobbyLink !== false && rematch(view) !== null;
    return h(
      "p",
      { class: "after-match" },
      canRematch
        ? h(
            "button",
            { type: "button", id: "play-again", disabled: again.stage !== "", onClick: () => playAgain(state) },
            gettext("Play again"),
          )
        : null,
      " ",
      h("a", { href: `/play/matches/${view.id}/replay/` }, gettext("Watch the replay")),
      again.stage === "challenged"
        ? h(
            "span",
            { class: "notice", role: "status" },
            " ",
            gettext("Challenge sent: the match starts when everyone has accepted."),
            " ",
            h("a", { href: "/play/" }, gettext("Back to the lobby")),
          )
        : null,
      again.error ? h("span", { class: "error", role: "alert" }, ` ${again.error}`) : null,
    );
  }

  /** @param {TableState} state */
  function tools(state) {
    const view = state.view;
    const seat = mySeat(state);
    const leave = view?.status === "waiting" ? gettext("Leave") : gettext("Resign");
    const canLeave = seat !== null && (view?.status === "active" || view?.status === "waiting");
    return [
      options.lobbyLink !== false ? h("a", { href: "/play/" }, gettext("Lobby")) : null,
      h(
        "button",
        {
          type: "button",
          id: "screen-toggle",
          "aria-pressed": state.screen ? "true" : "false",
          onClick: () => toggleScreen(!state.screen),
        },
        gettext("Big screen"),
      ),
      h(
        "button",
        {
          type: "button",
          id: "sound-toggle",
          "aria-pressed": state.muted ? "false" : "true",
          onClick: () => table.setMuted(!state.muted),
        },
        gettext("Sound"),
      ),
      !canLeave
        ? null
        : state.confirmingResign
          ? [
              h(
                "span",
                { class: "confirm" },
                view?.status === "waiting" ? gettext("Leave this match?") : gettext("Resign this match?"),
                " ",
              ),
              h(
                "button",
                { type: "button", id: "resign-yes", disabled: busy(state), onClick: () => table.resign() },
                view?.status === "waiting" ? gettext("Yes, leave") : gettext("Yes, resign"),
              ),
              h(
                "button",
                { type: "button", id: "resign-no", onClick: () => table.confirmResign(false) },
                gettext("No"),
              ),
            ]
          : h("button", { type: "button", id: "resign", onClick: () => table.confirmResign(true) }, leave),
    ];
  }

  /** @param {boolean} on */
  function toggleScreen(on) {
    const url = new URL(window.location.href);
    if (on) {
      url.searchParams.set("screen", "1");
    } else {
      url.searchParams.delete("screen");
    }
    window.history.replaceState(null, "", url);
    table.setScreen(on);
  }

  /**
   * Before the start: who sits where, and what the caller can do about it.
   *
   * @param {View} view
   * @param {TableContext} context
   */
  function waitingRoom(view, context) {
    const open = view.seats.filter((seat) => !seat.player && !seat.bot);
    const seated = context.mySeat !== null;
    const creator = seated && view.seats[context.mySeat ?? -1]?.player === view.created_by;
    return h(
      "section",
      { class: "waiting" },
      h("h2", {}, gettext("Seats")),
      h(
        "ol",
        {},
        view.seats.map((seat) =>
          h(
            "li",
            { key: seat.seat },
            seat.player
              ? `${seat.player}${seat.seat === context.mySeat ? ` ${gettext("(you)")}` : ""}`
              : seat.bot
                ? context.name(seat.seat)
                : gettext("Open"),
            !seated && !seat.player && !seat.bot
              ? [
                  " ",
                  h(
                    "button",
                    { type: "button", disabled: context.busy, onClick: () => table.join(seat.seat) },
                    interpolate(gettext("Take seat %(number)s"), { number: seat.seat + 1 }),
                  ),
                ]
              : null,
          ),
        ),
      ),
      open.length > 0
        ? h(
            "p",
            {},
            interpolate(gettext("Open seats: %(count)s. Share this page's address to invite someone."), {
              count: open.length,
            }),
          )
        : null,
      creator && open.length === 0
        ? h(
            "button",
            { type: "button", id: "start", disabled: context.busy, onClick: () => table.start() },
            gettext("Start the match"),
          )
        : null,
    );
  }

  /**
   * What happened, oldest first, in words (names come from the view).
   *
   * @param {TableState} state
   * @param {(seat: number | null | undefined) => string} name
   */
  function logSection(state, name) {
    const seat = mySeat(state);
    const lines = state.view === null ? [] : state.log;
    return h(
      "section",
      { class: "log-section", "aria-label": gettext("What happened") },
      h("h2", {}, gettext("What happened")),
      h(
        "div",
        { class: "log-box", tabindex: "0", role: "region", "aria-label": gettext("What happened, oldest first") },
        h(
          "ol",
          { class: "log" },
          lines.flatMap((event) => {
            const sentence = describe(event, name, seat);
            return sentence === null
              ? []
              : [h("li", { key: event.seq, "data-seq": event.seq, class: `event ${event.type}` }, sentence)];
          }),
        ),
      ),
    );
  }

  const onOnline = () => table.setOnline(true);
  const onOffline = () => table.setOnline(false);
  window.addEventListener("online", onOnline);
  window.addEventListener("offline", onOffline);
  // The clock counts down between events.
  const timer = setInterval(() => {
    const state = table.state();
    if (state.view?.turn_deadline && !isOver(state)) {
      draw(state, state);
    }
  }, 1000);
  draw(table.state(), table.state());

  return {
    stop() {
      table.stop();
      clearInterval(timer);
      window.removeEventListener("online", onOnline);
      window.removeEventListener("offline", onOffline);
    },
  };
}

/**
 * Where a new thing on the table comes from: a card laid by another seat from that seat's hand, a
 * card that came to the caller's hand from the stock.
 *
 * @param {string} key
 * @param {import("../../types/api").MatchEvent[]} added
 * @param {number | null} seat the caller's
 * @returns {string | null}
 */
function origin(key, added, seat) {
  if (!key.startsWith("card:")) {
    return null;
  }
  const code = key.slice("card:".length).split(".")[0];
  for (const event of [...added].reverse()) {
    if (event.type === "play" && event.data.card === code && event.seat !== seat) {
      return `seat:${event.seat}`;
    }
    if (event.type === "draw" && event.seat === seat) {
      return "stock";
    }
  }
  return null;
}
