// What the lobby lists and says, from what the API answers: no DOM and no network here (lobby.js
// reads and draws; node --test checks this).

import { counted, gettext, interpolate, ngettext } from "./i18n.js";

/** @typedef {import("../../types/api").MatchSummary} MatchSummary */
/** @typedef {import("../../types/api").Tournament} Tournament */
/** @typedef {import("../../types/api").FeedEvent} FeedEvent */

/**
 * A table of a tournament's round being played, to watch.
 *
 * @typedef {object} TournamentTable
 * @property {number} match
 * @property {string} tournament its name
 * @property {number} round
 * @property {number} table
 * @property {string[]} players
 */

/**
 * The online tables still being played in the latest round of each tournament.
 *
 * @param {Tournament[]} tournaments
 * @returns {TournamentTable[]}
 */
export function tournamentTables(tournaments) {
  return tournaments.flatMap((tournament) => {
    const round = tournament.rounds.at(-1);
    if (round === undefined) {
      return [];
    }
    return round.tables.flatMap((table) =>
      table.match === null || table.recorded
        ? []
        : [
            {
              match: table.match,
              tournament: tournament.name,
              round: round.number,
              table: table.number,
              players: table.seats.map((seat) => seat.name),
            },
          ],
    );
  });
}

/**
 * The matches being played, each once: those of tournament tables are listed with their
 * tournament, not here too.
 *
 * @param {MatchSummary[]} active
 * @param {TournamentTable[]} tables
 * @param {number} limit
 * @returns {MatchSummary[]}
 */
export function beingPlayed(active, tables, limit) {
  const atTables = new Set(tables.map((table) => table.match));
  return active.filter((match) => !atTables.has(match.id)).slice(0, limit);
}

/**
 * A match status in words.
 *
 * @param {string} status
 */
export function statusWords(status) {
  return (
    {
      waiting: gettext("waiting for players"),
      active: gettext("being played"),
      finished: gettext("finished"),
      abandoned: gettext("abandoned"),
    }[status] ?? status
  );
}

/**
 * "Match 12: switch, 3 seats".
 *
 * @param {MatchSummary} match
 */
export function matchLine(match) {
  return interpolate(gettext("Match %(id)s: %(ruleset)s, %(seats)s"), {
    id: match.id,
    ruleset: match.ruleset,
    seats: counted(match.seat_count, ngettext("%(count)s seat", "%(count)s seats", match.seat_count)),
  });
}

/**
 * What the lobby's notices say of a feed event, or null for one it does not mention (a turn in
 * a match already noticed is told once).
 *
 * @param {FeedEvent} event
 * @returns {string | null}
 */
export function noticeText(event) {
  const data = /** @type {Record<string, any>} */ (event.data);
  switch (event.type) {
    case "your_turn":
      return interpolate(gettext("It is your turn in match %(match)s."), { match: data.match });
    case "match_started":
      return interpolate(gettext("Match %(match)s has started."), { match: data.match });
    case "challenge":
      return interpolate(gettext("%(player)s challenges you to %(ruleset)s."), {
        player: data.from,
        ruleset: data.ruleset,
      });
    case "challenge_declined":
      return interpolate(gettext("%(player)s declined a challenge."), { player: data.player });
    case "round_seated":
      return data.match === null
        ? null
        : interpolate(gettext("Tournament %(tournament)s, round %(round)s: you play at table %(table)s."), {
            tournament: data.tournament,
            round: data.round,
            table: data.table,
          });
    default:
      return null;
  }
}
