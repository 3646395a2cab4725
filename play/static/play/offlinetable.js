// A player's table at a club night played with real cards (docs/api.md, "Results from the players'
// phones"): where they sit this round, the result once it is recorded, a report to confirm or
// dispute, the form to report it, and the self check-in button. The seat-link page of an offline
// tournament and a member's page of their tournament (/play/tournaments/N/) both show it. Every
// write goes through the outbox: typed while the venue's network is down, it is kept on this
// phone and sent, once, when the network is back. The page follows the player's feed
// (round_seated, table_report) and reads the table again when it changes.

import { ApiError } from "./api.js";
import { gettext, interpolate } from "./i18n.js";
import { Outbox } from "./outbox.js";
import { emptyRow, firstRows, resultBody, resultLines, rowsGrow } from "./reportform.js";
import { followFeed } from "./sse.js";
import { h, render } from "./vendor/preact.mjs";

/** @typedef {import("./api.js").Api} Api */
/** @typedef {import("./reportform.js").Row} Row */
/** @typedef {import("./outbox.js").OutboxState} OutboxState */

// Where the check-in is open: before the first round is seated and between rounds.
const CHECKIN_OPEN = ["registering", "round_complete"];

/**
 * What the page knows of the player's tournament and table.
 * @typedef {{mine: any, tournament: any, table: any, reports: any[]}} Shown
 */

/**
 * Show the player's table in `root`, kept current, and take their reports.
 *
 * @param {HTMLElement} root
 * @param {{api: Api, storage: string, tournament?: number, heading: string}} options `storage`:
 *   the name of this player's outbox in the browser's storage; `tournament`: which tournament
 *   (else the player's newest offline one)
 */
export function mountOfflineTable(root, { api, storage, tournament: wanted, heading }) {
  /** @type {Shown | null} */
  let shown = null;
  let words = "";
  /** @type {Row[]} */
  let rows = [];
  let confirmHigh = false;
  let reason = "";
  /** @type {OutboxState} */
  let outboxState = { waiting: [], sent: [], refused: [] };
  const formKey = { table: "" }; // the table the form's rows belong to

  const outbox = new Outbox({
    storage: window.localStorage,
    name: storage,
    send: (item) => api.request("POST", item.path, item.body, { "Idempotency-Key": item.key }),
    offline: (failure) => failure instanceof ApiError && failure.retryable,
  });

  /**
   * Read the player's tournament and table again; `sameEntry`: only the table changed (a
   * report's news), so the entry read before still holds and one request is spared.
   *
   * @param {boolean} [sameEntry]
   */
  async function load(sameEntry = false) {
    try {
      /** @type {any[]} */
      const entries = sameEntry && shown ? [shown.mine] : await api.get("/tournaments/mine/");
      const mine = entries.find((entry) => (wanted ? entry.tournament === wanted : entry.play === "offline"));
      if (!mine) {
        shown = null;
        words = gettext("You have no entry in this tournament.");
        draw();
        return;
      }
      const tournament = await api.get(`/tournaments/${mine.tournament}/`);
      const played = mine.table
        ? tournament.rounds.find((/** @type {any} */ r) => r.number === mine.table.round)
        : null;
      const table = played?.tables.find((/** @type {any} */ t) => t.number === mine.table.table) ?? null;
      const reports = table && mine.self_report !== "off" ? await api.get(reportsPath(mine)) : [];
      shown = { mine, tournament, table, reports };
      const key = `${mine.tournament}/${mine.table?.round}/${mine.table?.table}`;
      if (formKey.table !== key) {
        formKey.table = key;
        rows = Array.from({ length: firstRows(tournament) }, emptyRow);
      }
      words = "";
    } catch (failure) {
      words = failure instanceof ApiError ? failure.describe() : String(failure);
    }
    draw();
  }

  /** @param {any} mine */
  function reportsPath(mine) {
    return `/tournaments/${mine.tournament}/rounds/${mine.table.round}/tables/${mine.table.table}/reports/`;
  }

  /** @param {{path: string, body: unknown, label: string}} write */
  function send(write) {
    outbox.add(write);
  }

  function draw() {
    render(page(), root);
  }

  function page() {
    return h(
      "section",
      { class: "offline-table", "aria-labelledby": "offline-table-title" },
      h("h1", { id: "offline-table-title" }, heading),
      words ? h("p", { class: "error", role: "alert" }, words) : null,
      outboxLine(),
      shown ? [checkin(shown), tableSection(shown)] : null,
    );
  }

  /** The outbox's state in words: what waits for the network, what was sent or refused. */
  function outboxLine() {
    const { waiting, sent, refused } = outboxState;
    const lines = [
      ...waiting.map((item) =>
        h(
          "p",
          { class: "outbox waiting" },
          interpolate(gettext("Waiting to send: %(what)s. It is kept on this phone until the network is back."), {
            what: item.label,
          }),
        ),
      ),
      ...sent
        .slice(-1)
        .map((item) => h("p", { class: "outbox sent" }, interpolate(gettext("Sent: %(what)s."), { what: item.label }))),
      ...refused
        .slice(-1)
        .map(({ item, failure }) =>
          h(
            "p",
            { class: "outbox refused error" },
            interpolate(gettext("Not accepted: %(what)s. %(why)s"), { what: item.label, why: failure?.detail ?? "" }),
          ),
        ),
    ];
    return h("div", { role: "status", class: "outbox-status" }, lines);
  }

  /** @param {Shown} data */
  function checkin({ mine, tournament }) {
    if (!mine.self_checkin || !CHECKIN_OPEN.includes(tournament.status)) {
      return null;
    }
    if (mine.present) {
      return h("p", { class: "checked-in" }, gettext("You are checked in for the next round."));
    }
    return h(
      "p",
      {},
      h(
        "button",
        {
          type: "button",
          onClick: () =>
            send({
              path: `/tournaments/${mine.tournament}/checkin/self/`,
              body: {},
              label: gettext("your check-in"),
            }),
        },
        gettext("I'm here: check in"),
      ),
    );
  }

  /** @param {Shown} data */
  function tableSection({ mine, tournament, table, reports }) {
    if (!mine.table || !table) {
      return h(
        "p",
        { class: "no-table" },
        gettext("Your table is not seated yet. This page shows it as soon as the round is published."),
      );
    }
    const names = table.seats.map((/** @type {any} */ seat) => seat.name);
    return h(
      "div",
      { class: "my-table", "data-round": mine.table.round, "data-table": mine.table.table },
      h(
        "h2",
        {},
        interpolate(gettext("%(tournament)s: round %(round)s, table %(table)s"), {
          tournament: tournament.name,
          round: mine.table.round,
          table: mine.table.table,
        }),
      ),
      h(
        "ol",
        { class: "seats" },
        names.map((/** @type {string} */ name) => h("li", {}, name === mine.entry ? h("strong", {}, name) : name)),
      ),
      resultOrReport(mine, tournament, table, reports, names),
    );
  }

  /**
   * @param {any} mine
   * @param {any} tournament
   * @param {any} table
   * @param {any[]} reports
   * @param {string[]} names
   */
  function resultOrReport(mine, tournament, table, reports, names) {
    if (table.result) {
      const totals = Object.entries(table.result.totals).map(([name, points]) => `${name} ${points}`);
      return h(
        "p",
        { class: "recorded" },
        interpolate(gettext("Result recorded: %(totals)s."), { totals: totals.join(", ") }),
      );
    }
    if (mine.self_report === "off") {
      return h("p", {}, gettext("The desk enters this table's result."));
    }
    const disputed = reports.filter((report) => report.status === "disputed");
    if (disputed.length > 0) {
      return h(
        "div",
        { class: "disputed" },
        h("p", {}, gettext("This result is disputed: the desk settles it.")),
        disputed.map((report) => reportView(report)),
      );
    }
    const pending = reports.find((report) => report.status === "pending");
    if (pending) {
      return pendingView(mine, pending);
    }
    return reportForm(mine, tournament, names);
  }

  /** @param {any} report */
  function reportView(report) {
    return h(
      "div",
      { class: "report", "data-report": report.id },
      h("p", {}, interpolate(gettext("Reported by %(name)s:"), { name: report.by })),
      h(
        "ul",
        {},
        resultLines(report.result).map((line) => h("li", {}, line)),
      ),
      report.reason ? h("p", {}, interpolate(gettext("Disputed: %(reason)s"), { reason: report.reason })) : null,
    );
  }

  /**
   * @param {any} mine
   * @param {any} report
   */
  function pendingView(mine, report) {
    const path = `${reportsPath(mine)}${report.id}/`;
    if (report.by === mine.entry) {
      return h(
        "div",
        { class: "pending" },
        reportView(report),
        h("p", {}, gettext("Your report awaits an opponent's confirmation.")),
      );
    }
    return h(
      "div",
      { class: "pending" },
      reportView(report),
      h("p", {}, gettext("Is this right? Confirm it, or dispute it for the desk.")),
      h(
        "button",
        {
          type: "button",
          onClick: () => send({ path: `${path}confirm/`, body: {}, label: gettext("your confirmation") }),
        },
        gettext("Confirm"),
      ),
      h(
        "label",
        { class: "reason" },
        gettext("What is wrong (for the desk)"),
        h("input", {
          type: "text",
          maxLength: 200,
          value: reason,
          onInput: (/** @type {any} */ event) => {
            reason = event.currentTarget.value;
          },
        }),
      ),
      h(
        "button",
        {
          type: "button",
          class: "secondary",
          onClick: () => send({ path: `${path}dispute/`, body: { reason }, label: gettext("your dispute") }),
        },
        gettext("Dispute"),
      ),
    );
  }

  /**
   * @param {any} mine
   * @param {any} tournament
   * @param {string[]} names
   */
  function reportForm(mine, tournament, names) {
    const scoring = tournament.scoring;
    return h(
      "form",
      {
        class: "report-form",
        onSubmit: (/** @type {Event} */ event) => {
          event.preventDefault();
          send({
            path: reportsPath(mine),
            body: resultBody(scoring, names, rows, confirmHigh),
            label: interpolate(gettext("the result of table %(table)s"), { table: mine.table.table }),
          });
        },
      },
      h("h3", {}, gettext("Report the result")),
      rows.map((row, index) => rowFields(scoring, names, row, index)),
      rowsGrow(tournament)
        ? h(
            "button",
            {
              type: "button",
              class: "secondary",
              onClick: () => {
                rows = [...rows, emptyRow()];
                draw();
              },
            },
            scoring === "abbott" ? gettext("Add a hand") : gettext("Add a deal"),
          )
        : null,
      scoring === "french"
        ? h(
            "label",
            { class: "confirm-high" },
            h("input", {
              type: "checkbox",
              checked: confirmHigh,
              onChange: (/** @type {any} */ event) => {
                confirmHigh = event.currentTarget.checked;
              },
            }),
            gettext("A tally above 150 is right"),
          )
        : null,
      h("button", { type: "submit" }, gettext("Report this result")),
    );
  }

  /**
   * @param {string} label
   * @param {string} value
   * @param {string[]} choices
   * @param {(value: string) => void} change
   * @param {string} [none] the words of the empty choice
   */
  function select(label, value, choices, change, none = "—") {
    return h(
      "label",
      {},
      label,
      h(
        "select",
        {
          value,
          onChange: (/** @type {any} */ event) => {
            change(event.currentTarget.value);
            draw();
          },
        },
        h("option", { value: "" }, none),
        choices.map((choice) => h("option", { value: choice }, choice)),
      ),
    );
  }

  /**
   * @param {string} scoring
   * @param {string[]} names
   * @param {Row} row
   * @param {number} index
   */
  function rowFields(scoring, names, row, index) {
    const number = index + 1;
    if (scoring === "abbott") {
      return h(
        "fieldset",
        { class: "report-row" },
        h("legend", {}, interpolate(gettext("Hand %(number)s"), { number })),
        select(
          gettext("Winner"),
          row.winner,
          names,
          (value) => {
            row.winner = value;
          },
          gettext("a tie"),
        ),
        names.length === 4
          ? [
              select(gettext("Chose an ally"), row.chooser, names, (value) => {
                row.chooser = value;
              }),
              select(gettext("Ally chosen"), row.chosen, names, (value) => {
                row.chosen = value;
              }),
            ]
          : null,
      );
    }
    if (scoring === "placement") {
      return h(
        "fieldset",
        { class: "report-row" },
        h("legend", {}, interpolate(gettext("Deal %(number)s"), { number })),
        names.map((_, place) =>
          select(
            interpolate(gettext("Place %(place)s"), { place: place + 1 }),
            row.order[place] ?? "",
            names,
            (value) => {
              row.order[place] = value;
            },
          ),
        ),
      );
    }
    return h(
      "fieldset",
      { class: "report-row" },
      h("legend", {}, interpolate(gettext("Deal %(number)s"), { number })),
      select(gettext("Went out"), row.winner, names, (value) => {
        row.winner = value;
      }),
      names
        .filter((name) => name !== row.winner)
        .map((name) =>
          h(
            "label",
            {},
            interpolate(gettext("Tally left to %(name)s"), { name }),
            h("input", {
              type: "number",
              inputMode: "numeric",
              min: 0,
              value: row.tallies[name] ?? "",
              onInput: (/** @type {any} */ event) => {
                row.tallies[name] = event.currentTarget.value;
              },
            }),
          ),
        ),
    );
  }

  outbox.listen((state) => {
    const sent = state.sent.slice(outboxState.sent.length);
    const refused = state.refused.length > outboxState.refused.length;
    outboxState = state;
    draw();
    // A report, a confirmation or a dispute sent comes back as the table's news in the feed; a
    // check-in, or a write refused, changes nothing the feed tells: read again now.
    if (refused || sent.some((item) => item.path.endsWith("/checkin/self/"))) {
      load();
    }
  });
  outbox.watch(window).then(() => load()); // what waited was sent before the feed was followed
  load();
  followFeed(api, (event) => {
    if (event.type === "round_seated") {
      load();
    } else if (event.type === "table_report") {
      load(event.data.tournament === shown?.mine.tournament);
    }
  });
}
