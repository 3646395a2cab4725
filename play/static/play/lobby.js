// The lobby at /play/: sign in or up; then your matches, challenges sent and received, open
// matches to join, matches being played to watch, and the form that creates a match (against
// bots, with open seats, or as a challenge). It follows the player's feed to stay current.

import { ApiError, forgetSession } from "./api.js";
import { byId, fill, h, plural } from "./dom.js";
import { newMatchForm } from "./matchform.js";
import { signedIn, signInForm } from "./signin.js";
import { followFeed } from "./sse.js";

/** @typedef {import("./api.js").Api} Api */
/** @typedef {import("../../types/api").MatchSummary} MatchSummary */
/** @typedef {import("../../types/api").Challenge} Challenge */
/** @typedef {import("../../types/api").FeedEvent} FeedEvent */
/** @typedef {import("../../types/api").TournamentSummary} TournamentSummary */
/** @typedef {import("../../types/api").Tournament} Tournament */

// Matches being played, and tournaments being played, listed for watching.
const WATCH_LIMIT = 10;
const TOURNAMENT_LIMIT = 5;

const root = byId("lobby");

/** @param {{api: Api, username: string}} session */
function lobby({ api, username }) {
  const notices = h("ul", { class: "notices", "aria-live": "polite" });
  const mine = h("div", {}, h("p", {}, "Loading…"));
  const challenges = h("div", {}, h("p", {}, "Loading…"));
  const open = h("div", {}, h("p", {}, "Loading…"));
  const watching = h("div", {}, h("p", {}, "Loading…"));
  const tournaments = h("div", {}, h("p", {}, "Loading…"));
  const error = h("p", { class: "error", role: "alert" });
  /** @type {Set<number>} matches whose "your turn" is on the notices already */
  const noticed = new Set();

  fill(
    root,
    h(
      "header",
      { class: "lobby-header" },
      h("h1", {}, "Switch"),
      h(
        "p",
        {},
        `Signed in as ${username}. `,
        h(
          "button",
          {
            type: "button",
            class: "secondary",
            onclick: () => {
              feed.stop();
              forgetSession();
              start();
            },
          },
          "Sign out",
        ),
      ),
    ),
    notices,
    error,
    h(
      "div",
      { class: "lobby-grid" },
      h("section", { "aria-labelledby": "mine-title" }, h("h2", { id: "mine-title" }, "Your matches"), mine),
      h(
        "section",
        { "aria-labelledby": "challenges-title" },
        h("h2", { id: "challenges-title" }, "Challenges"),
        challenges,
      ),
      h("section", { "aria-labelledby": "open-title" }, h("h2", { id: "open-title" }, "Open matches"), open),
      h(
        "section",
        { "aria-labelledby": "new-title", class: "new-match" },
        h("h2", { id: "new-title" }, "New match"),
        newMatchForm(api, username),
      ),
      h("section", { "aria-labelledby": "watch-title" }, h("h2", { id: "watch-title" }, "Being played now"), watching),
      h(
        "section",
        { "aria-labelledby": "tournaments-title" },
        h("h2", { id: "tournaments-title" }, "Tournament tables"),
        tournaments,
      ),
    ),
  );

  /**
   * Run a write, show its refusal in words, then reload the lists.
   *
   * @param {() => Promise<unknown>} action
   */
  async function act(action) {
    error.textContent = "";
    try {
      await action();
    } catch (failure) {
      if (!(failure instanceof ApiError)) {
        throw failure;
      }
      error.textContent = failure.describe();
    }
    reload();
  }

  /** @param {MatchSummary} match */
  function matchLine(match) {
    return `Match ${match.id}: ${match.ruleset}, ${plural(match.seat_count, "seat")}`;
  }

  async function loadMine() {
    /** @type {MatchSummary[]} */
    const matches = await api.all("/matches/?player=me", 25);
    fill(
      mine,
      matches.length === 0
        ? h("p", {}, "None yet: create one below, or join an open match.")
        : h(
            "ul",
            { class: "matches" },
            matches.map((match) =>
              h("li", {}, h("a", { href: `/play/matches/${match.id}/` }, matchLine(match)), ` — ${match.status}`),
            ),
          ),
    );
  }

  async function loadChallenges() {
    /** @type {Challenge[]} */
    const pending = await api.all("/challenges/?status=pending", 50);
    fill(
      challenges,
      pending.length === 0
        ? h("p", {}, "No challenge is waiting for an answer.")
        : h(
            "ul",
            { class: "challenges" },
            pending.map((challenge) => {
              const invited = challenge.to.map((invitation) => invitation.player).join(", ");
              const what = `${challenge.ruleset}, ${plural(challenge.seats, "seat")}`;
              if (challenge.from === username) {
                return h(
                  "li",
                  {},
                  `You challenged ${invited} (${what}); waiting for answers. `,
                  h(
                    "button",
                    {
                      type: "button",
                      class: "secondary",
                      onclick: () => act(() => api.post(`/challenges/${challenge.id}/cancel/`)),
                    },
                    "Cancel",
                  ),
                );
              }
              const answered = challenge.to.find((invitation) => invitation.player === username)?.answer;
              return h(
                "li",
                {},
                `${challenge.from} challenges ${invited} (${what}). `,
                answered
                  ? "You accepted; waiting for the others."
                  : [
                      h(
                        "button",
                        { type: "button", onclick: () => act(() => api.post(`/challenges/${challenge.id}/accept/`)) },
                        "Accept",
                      ),
                      " ",
                      h(
                        "button",
                        {
                          type: "button",
                          class: "secondary",
                          onclick: () => act(() => api.post(`/challenges/${challenge.id}/decline/`)),
                        },
                        "Decline",
                      ),
                    ],
              );
            }),
          ),
    );
  }

  async function loadOpen() {
    /** @type {MatchSummary[]} */
    const matches = await api.all("/matches/?open=true", 25);
    fill(
      open,
      matches.length === 0
        ? h("p", {}, "No match is waiting for players.")
        : h(
            "ul",
            { class: "matches" },
            matches.map((match) =>
              h(
                "li",
                {},
                `${matchLine(match)}, by ${match.created_by}${match.auto_start ? " (starts when full)" : ""}. `,
                h(
                  "button",
                  {
                    type: "button",
                    onclick: () =>
                      act(async () => {
                        await api.post(`/matches/${match.id}/join/`);
                        window.location.assign(`/play/matches/${match.id}/`);
                      }),
                  },
                  `Join match ${match.id}`,
                ),
              ),
            ),
          ),
    );
  }

  async function loadWatching() {
    /** @type {MatchSummary[]} */
    const matches = await api.all("/matches/?status=active", WATCH_LIMIT);
    fill(
      watching,
      matches.length === 0
        ? h("p", {}, "No match is being played.")
        : h(
            "ul",
            { class: "matches" },
            matches.map((match) =>
              h(
                "li",
                {},
                h("a", { href: `/play/matches/${match.id}/` }, `Watch match ${match.id}`),
                `: ${match.ruleset}, ${plural(match.seat_count, "seat")}, by ${match.created_by}`,
              ),
            ),
          ),
    );
  }

  /** The online tables of the current round of each tournament being played, to watch. */
  async function loadTournaments() {
    /** @type {TournamentSummary[]} */
    const summaries = await api.all("/tournaments/", 25);
    const running = summaries.filter((summary) => summary.status === "running").slice(0, TOURNAMENT_LIMIT);
    /** @type {Tournament[]} */
    const details = await Promise.all(running.map((summary) => api.get(`/tournaments/${summary.id}/`)));
    const lines = details.flatMap((tournament) => {
      const round = tournament.rounds.at(-1);
      const tables = (round?.tables ?? []).filter((table) => table.match !== null && !table.recorded);
      return tables.map((table) =>
        h(
          "li",
          {},
          h(
            "a",
            { href: `/play/matches/${table.match}/` },
            `Watch ${tournament.name}, round ${round?.number}, table ${table.number}`,
          ),
          `: ${table.seats.map((seat) => seat.name).join(", ")}`,
        ),
      );
    });
    fill(
      tournaments,
      lines.length === 0 ? h("p", {}, "No tournament table is being played.") : h("ul", { class: "matches" }, lines),
    );
  }

  /** @param {unknown} failure */
  function say(failure) {
    error.textContent = failure instanceof ApiError ? failure.describe() : String(failure);
  }

  function reload() {
    for (const load of [loadMine, loadChallenges, loadOpen, loadWatching, loadTournaments]) {
      load().catch(say);
    }
  }

  /**
   * @param {FeedEvent} event
   */
  function notice(event) {
    /** @type {string | null} */
    let text = null;
    switch (event.type) {
      case "your_turn":
        if (noticed.has(event.data.match ?? 0)) {
          return;
        }
        noticed.add(event.data.match ?? 0);
        text = `It is your turn in match ${event.data.match}.`;
        break;
      case "match_started":
        text = `Match ${event.data.match} has started.`;
        break;
      case "challenge":
        text = `${event.data.from} challenges you to ${event.data.ruleset}.`;
        break;
      case "challenge_declined":
        text = `${event.data.player} declined a challenge.`;
        break;
      case "round_seated":
        if (event.data.match !== null) {
          text = `Tournament ${event.data.tournament}, round ${event.data.round}: you play at table ${event.data.table}.`;
        }
        break;
      default:
        return;
    }
    if (text !== null) {
      notices.append(
        h(
          "li",
          {},
          text,
          event.match ? [" ", h("a", { href: `/play/matches/${event.match}/` }, `Go to match ${event.match}`)] : null,
        ),
      );
    }
  }

  const feed = followFeed(
    api,
    (event) => {
      notice(event);
      if (event.type !== "your_turn") {
        reload();
      }
    },
    say,
  );
  reload();
}

async function start() {
  const session = await signedIn();
  if (session === null) {
    fill(root, signInForm(lobby));
    return;
  }
  lobby(session);
}

start();
