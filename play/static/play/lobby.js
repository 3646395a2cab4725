// The lobby at /play/: sign in or up; then your matches, challenges sent and received, open
// matches to join, matches being played to watch (each once: a tournament's table under its
// tournament), "Play now" (quick play), and the form that creates a match (against bots, with
// open seats, or as a challenge). It stays current without a reload: the lobby's stream says when the lists changed,
// the player's feed brings challenges and news of their own matches.

import { ApiError, forgetSession } from "./api.js";
import { counted, gettext, interpolate, ngettext } from "./i18n.js";
import { beingPlayed, matchLine, noticeText, statusWords, tournamentTables } from "./lobbystate.js";
import { createMatchForm } from "./matchform.js";
import { createQuickPlay } from "./quickplay.js";
import { byId, whenSignedIn } from "./signin.js";
import { follow, followFeed } from "./sse.js";
import { h, render } from "./vendor/preact.mjs";

/** @typedef {import("./api.js").Api} Api */
/** @typedef {import("../../types/api").MatchSummary} MatchSummary */
/** @typedef {import("../../types/api").Challenge} Challenge */
/** @typedef {import("../../types/api").FeedEvent} FeedEvent */
/** @typedef {import("../../types/api").TournamentSummary} TournamentSummary */
/** @typedef {import("../../types/api").Tournament} Tournament */
/** @typedef {import("./lobbystate.js").TournamentTable} TournamentTable */
/** @typedef {import("./vendor/preact.mjs").ComponentChildren} Children */

// Matches being played, and tournaments being played, listed for watching.
const WATCH_LIMIT = 10;
const TOURNAMENT_LIMIT = 5;
// Changes that come together are read once, this long after the first.
const GATHER_MILLISECONDS = 250;

const root = byId("lobby");

/** @param {{api: Api, username: string}} session */
function lobby({ api, username }) {
  /** @type {{key: number, text: string, match: number | null}[]} */
  let notices = [];
  let error = "";
  /** @type {MatchSummary[] | null} */
  let mine = null;
  /** @type {Challenge[] | null} */
  let challenges = null;
  /** @type {MatchSummary[] | null} */
  let open = null;
  /** @type {MatchSummary[] | null} */
  let watching = null;
  /** @type {TournamentTable[] | null} */
  let tables = null;
  /** @type {Set<number>} matches whose "your turn" is on the notices already */
  const noticed = new Set();
  const form = createMatchForm(api, username, draw);
  const quick = createQuickPlay(api, draw);

  /** @param {unknown} failure */
  function say(failure) {
    error = failure instanceof ApiError ? failure.describe() : String(failure);
    draw();
  }

  /**
   * Run a write, show its refusal in words, then read the lists again.
   *
   * @param {() => Promise<unknown>} action
   */
  async function act(action) {
    error = "";
    try {
      await action();
    } catch (failure) {
      if (!(failure instanceof ApiError)) {
        throw failure;
      }
      say(failure);
    }
    readAll();
  }

  async function readMine() {
    mine = await api.all("/matches/?player=me", 25);
  }

  async function readChallenges() {
    challenges = await api.all("/challenges/?status=pending", 50);
  }

  async function readOpen() {
    open = await api.all("/matches/?open=true", 25);
  }

  /** The tournament tables and the other matches being played, each match once. */
  async function readPlaying() {
    /** @type {TournamentSummary[]} */
    const summaries = await api.all("/tournaments/", 25);
    const running = summaries.filter((summary) => summary.status === "running").slice(0, TOURNAMENT_LIMIT);
    /** @type {Tournament[]} */
    const details = await Promise.all(running.map((summary) => api.get(`/tournaments/${summary.id}/`)));
    const atTables = tournamentTables(details);
    const active = await api.all("/matches/?status=active", WATCH_LIMIT + atTables.length);
    tables = atTables;
    watching = beingPlayed(active, atTables, WATCH_LIMIT);
  }

  /** @param {(() => Promise<void>)[]} reads */
  function read(reads) {
    for (const one of reads) {
      one().then(draw, say);
    }
  }

  function readAll() {
    read([readMine, readChallenges, readOpen, readPlaying]);
  }

  /** @type {ReturnType<typeof setTimeout> | null} */
  let gathering = null;
  /** The lobby changed: read its lists again (once for changes that come together). */
  function lobbyChanged() {
    if (gathering === null) {
      gathering = setTimeout(() => {
        gathering = null;
        read([readMine, readOpen, readPlaying]);
      }, GATHER_MILLISECONDS);
    }
  }

  /** @param {FeedEvent} event */
  function notice(event) {
    if (event.type === "your_turn") {
      if (noticed.has(event.match ?? 0)) {
        return;
      }
      noticed.add(event.match ?? 0);
    }
    const text = noticeText(event);
    if (text !== null) {
      notices = [...notices, { key: event.seq, text, match: event.match ?? null }];
      draw();
    }
  }

  /**
   * A list, "Loading…" before it is read, or what to say when it is empty.
   *
   * @template T
   * @param {T[] | null} items
   * @param {string} empty
   * @param {(item: T) => Children} line
   * @param {string} [className]
   */
  function list(items, empty, line, className = "matches") {
    if (items === null) {
      return h("p", {}, gettext("Loading…"));
    }
    return items.length === 0 ? h("p", {}, empty) : h("ul", { class: className }, items.map(line));
  }

  /** @param {Challenge} challenge */
  function challengeLine(challenge) {
    const invited = challenge.to.map((invitation) => invitation.player).join(", ");
    const what = interpolate(gettext("%(ruleset)s, %(seats)s"), {
      ruleset: challenge.ruleset,
      seats: counted(challenge.seats, ngettext("%(count)s seat", "%(count)s seats", challenge.seats)),
    });
    if (challenge.from === username) {
      return h(
        "li",
        { key: challenge.id },
        interpolate(gettext("You challenged %(players)s (%(what)s); waiting for answers."), { players: invited, what }),
        " ",
        h(
          "button",
          {
            type: "button",
            class: "secondary",
            onClick: () => act(() => api.post(`/challenges/${challenge.id}/cancel/`)),
          },
          gettext("Cancel"),
        ),
      );
    }
    const answered = challenge.to.find((invitation) => invitation.player === username)?.answer;
    return h(
      "li",
      { key: challenge.id },
      interpolate(gettext("%(challenger)s challenges %(players)s (%(what)s)."), {
        challenger: challenge.from,
        players: invited,
        what,
      }),
      " ",
      answered
        ? gettext("You accepted; waiting for the others.")
        : [
            h(
              "button",
              { type: "button", onClick: () => act(() => api.post(`/challenges/${challenge.id}/accept/`)) },
              gettext("Accept"),
            ),
            " ",
            h(
              "button",
              {
                type: "button",
                class: "secondary",
                onClick: () => act(() => api.post(`/challenges/${challenge.id}/decline/`)),
              },
              gettext("Decline"),
            ),
          ],
    );
  }

  /** @param {MatchSummary} match */
  function openLine(match) {
    const by = interpolate(
      match.auto_start ? gettext("%(match)s, by %(player)s (starts when full).") : gettext("%(match)s, by %(player)s."),
      { match: matchLine(match), player: match.created_by },
    );
    return h(
      "li",
      { key: match.id },
      by,
      " ",
      h(
        "button",
        {
          type: "button",
          onClick: () =>
            act(async () => {
              await api.post(`/matches/${match.id}/join/`);
              window.location.assign(`/play/matches/${match.id}/`);
            }),
        },
        interpolate(gettext("Join match %(id)s"), { id: match.id }),
      ),
    );
  }

  /** @param {MatchSummary} match */
  function watchLine(match) {
    return h(
      "li",
      { key: match.id },
      h("a", { href: `/play/matches/${match.id}/` }, interpolate(gettext("Watch match %(id)s"), { id: match.id })),
      interpolate(gettext(": %(ruleset)s, %(seats)s, by %(player)s"), {
        ruleset: match.ruleset,
        seats: counted(match.seat_count, ngettext("%(count)s seat", "%(count)s seats", match.seat_count)),
        player: match.created_by,
      }),
    );
  }

  /** @param {TournamentTable} table */
  function tableLine(table) {
    return h(
      "li",
      { key: table.match },
      h(
        "a",
        { href: `/play/matches/${table.match}/` },
        interpolate(gettext("Watch %(tournament)s, round %(round)s, table %(table)s"), table),
      ),
      `: ${table.players.join(", ")}`,
    );
  }

  /**
   * @param {string} id
   * @param {string} title
   * @param {Children} body
   * @param {string} [className]
   */
  function section(id, title, body, className) {
    return h("section", { "aria-labelledby": id, class: className }, h("h2", { id }, title), body);
  }

  function draw() {
    render(
      [
        h(
          "header",
          { class: "lobby-header" },
          h("h1", {}, "Switch"),
          h(
            "p",
            {},
            interpolate(gettext("Signed in as %(player)s."), { player: username }),
            " ",
            h("a", { href: `/play/players/${encodeURIComponent(username)}/` }, gettext("Your page")),
            " ",
            h("a", { href: "/play/ladders/" }, gettext("Ladders")),
            " ",
            h(
              "button",
              {
                type: "button",
                class: "secondary",
                onClick: () => {
                  feed.stop();
                  stream.stop();
                  forgetSession();
                  whenSignedIn(root, lobby);
                },
              },
              gettext("Sign out"),
            ),
          ),
        ),
        h(
          "ul",
          { class: "notices", "aria-live": "polite" },
          notices.map((entry) =>
            h(
              "li",
              { key: entry.key },
              entry.text,
              entry.match
                ? [
                    " ",
                    h(
                      "a",
                      { href: `/play/matches/${entry.match}/` },
                      interpolate(gettext("Go to match %(id)s"), { id: entry.match }),
                    ),
                  ]
                : null,
            ),
          ),
        ),
        h("p", { class: "error", role: "alert" }, error),
        h(
          "div",
          { class: "lobby-grid" },
          section(
            "mine-title",
            gettext("Your matches"),
            list(mine, gettext("None yet: create one below, or join an open match."), (match) =>
              h(
                "li",
                { key: match.id },
                h("a", { href: `/play/matches/${match.id}/` }, matchLine(match)),
                ` — ${statusWords(match.status)}`,
              ),
            ),
          ),
          section(
            "challenges-title",
            gettext("Challenges"),
            list(challenges, gettext("No challenge is waiting for an answer."), challengeLine, "challenges"),
          ),
          section(
            "open-title",
            gettext("Open matches"),
            list(open, gettext("No match is waiting for players."), openLine),
          ),
          section("quick-title", gettext("Play now"), quick.view(), "quick-play"),
          section("new-title", gettext("New match"), form.view(), "new-match"),
          section(
            "watch-title",
            gettext("Being played now"),
            list(watching, gettext("No other match is being played."), watchLine),
          ),
          section(
            "tournaments-title",
            gettext("Tournament tables"),
            list(tables, gettext("No tournament table is being played."), tableLine),
          ),
        ),
      ],
      root,
    );
  }

  const feed = followFeed(api, (event) => {
    notice(event);
    if (event.type === "match_started") {
      quick.matchStarted(); // perhaps quick play's: its entry says
    }
    if (event.type !== "your_turn") {
      read([readMine, readChallenges]);
    }
  });
  let lobbySeq = 0;
  // Its first event, at every (re)connection, reads the lists: nothing missed while away.
  const stream = follow({
    url: "/api/v1/lobby/stream/",
    token: api.token,
    cursor: () => lobbySeq,
    onMessage(message) {
      lobbySeq = Number(message.id) || lobbySeq;
      lobbyChanged();
    },
    onRefused(failure) {
      say(failure);
      readAll(); // not kept current, but shown
    },
  });
  draw();
  read([readChallenges]);
}

whenSignedIn(root, lobby);
