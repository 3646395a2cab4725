// "Play now" in the lobby: quick play. The player picks a ruleset and a number of players and
// waits (POST /pool/); the service starts a match as soon as enough players want the same game,
// or — when bots may fill the table — with server bots after the wait. The entry is read again
// every few seconds (and at once when the feed says a match started); once it has its match, the
// page goes to that match's table.

import { ApiError } from "./api.js";
import { gettext, interpolate } from "./i18n.js";
import { h } from "./vendor/preact.mjs";

/** @typedef {import("./api.js").Api} Api */
/** @typedef {import("../../types/api").Ruleset} Ruleset */
/** @typedef {import("../../types/api").PoolEntry} PoolEntry */
/** @typedef {import("../../types/api").PoolEnter} PoolEnter */
/** @typedef {import("../../types/api").RulesetName} RulesetName */
/** @typedef {import("./vendor/preact.mjs").ComponentChildren} Children */

// How often a waiting entry is read again.
const POLL_MILLISECONDS = 2000;

/**
 * The "Play now" form's state and drawing.
 *
 * @param {Api} api
 * @param {() => void} changed called after every change of its state: draw the page
 * @returns {{view: () => Children, matchStarted: () => void}}
 */
export function createQuickPlay(api, changed) {
  /** @type {Ruleset[]} */
  let rulesets = [];
  let ruleset = "switch";
  let seats = "2";
  let rated = false;
  let botsOk = true;
  /** @type {PoolEntry | null} */
  let entry = null;
  let error = "";
  /** @type {ReturnType<typeof setTimeout> | null} */
  let polling = null;

  /** @param {() => void} change */
  function update(change) {
    change();
    changed();
  }

  /** @param {unknown} failure */
  function refused(failure) {
    if (!(failure instanceof ApiError)) {
      throw failure;
    }
    update(() => {
      error = failure.describe();
    });
  }

  /** @param {PoolEntry} current */
  function follow(current) {
    if (current.status === "matched" && current.match !== null) {
      window.location.assign(`/play/matches/${current.match}/`);
      return;
    }
    update(() => {
      entry = current.status === "waiting" ? current : null;
    });
    if (entry !== null) {
      polling = setTimeout(readEntry, POLL_MILLISECONDS);
    }
  }

  async function readEntry() {
    polling = null;
    if (entry === null) {
      return;
    }
    try {
      follow(await api.get(`/pool/${entry.id}/`));
    } catch (failure) {
      refused(failure);
    }
  }

  /** @param {SubmitEvent} event */
  async function submit(event) {
    event.preventDefault();
    /** @type {PoolEnter} */
    // The ruleset is one of GET /rulesets/, which names them as strings.
    const body = {
      ruleset: /** @type {RulesetName} */ (ruleset),
      seats: Number(seats),
      rated,
      bots_ok: botsOk,
    };
    update(() => {
      error = "";
    });
    try {
      follow(await api.post("/pool/", body));
    } catch (failure) {
      refused(failure);
    }
  }

  async function stop() {
    if (entry === null) {
      return;
    }
    const leaving = entry;
    if (polling !== null) {
      clearTimeout(polling);
      polling = null;
    }
    try {
      await api.request("DELETE", `/pool/${leaving.id}/`);
      update(() => {
        entry = null;
      });
    } catch (failure) {
      refused(failure);
      readEntry();
    }
  }

  function current() {
    return rulesets.find((each) => each.name === ruleset) ?? null;
  }

  function waiting() {
    if (entry === null) {
      return null;
    }
    const note = entry.bots_ok
      ? interpolate(gettext("Waiting for players; server bots fill the table after %(seconds)s seconds."), {
          seconds: entry.wait_seconds,
        })
      : gettext("Waiting for players…");
    return h(
      "p",
      { class: "waiting", role: "status" },
      note,
      " ",
      h("button", { type: "button", class: "secondary", onClick: stop }, gettext("Stop waiting")),
    );
  }

  function form() {
    const [low, high] = current()?.players ?? [2, 10];
    const counts = [];
    for (let count = low; count <= high; count += 1) {
      counts.push(h("option", { value: String(count), key: count }, String(count)));
    }
    return h(
      "form",
      { class: "quick-play", onSubmit: submit },
      h(
        "p",
        { class: "field" },
        h("label", { for: "quick-ruleset" }, gettext("Ruleset")),
        h(
          "select",
          {
            id: "quick-ruleset",
            value: ruleset,
            onChange: (/** @type {Event} */ event) =>
              update(() => {
                ruleset = /** @type {HTMLSelectElement} */ (event.currentTarget).value;
                const [first, last] = current()?.players ?? [2, 10];
                seats = String(Math.min(Math.max(Number(seats), first), last));
              }),
          },
          rulesets.map((each) => h("option", { value: each.name, key: each.name }, each.title)),
        ),
      ),
      h(
        "p",
        { class: "field" },
        h("label", { for: "quick-seats" }, gettext("Players")),
        h(
          "select",
          {
            id: "quick-seats",
            value: seats,
            onChange: (/** @type {Event} */ event) =>
              update(() => {
                seats = /** @type {HTMLSelectElement} */ (event.currentTarget).value;
              }),
          },
          counts,
        ),
      ),
      h(
        "p",
        { class: "field check" },
        h("input", {
          id: "quick-bots",
          type: "checkbox",
          checked: botsOk,
          onChange: (/** @type {Event} */ event) =>
            update(() => {
              botsOk = /** @type {HTMLInputElement} */ (event.currentTarget).checked;
            }),
        }),
        h("label", { for: "quick-bots" }, gettext("Server bots may fill the table")),
      ),
      h(
        "p",
        { class: "field check" },
        h("input", {
          id: "quick-rated",
          type: "checkbox",
          checked: rated,
          onChange: (/** @type {Event} */ event) =>
            update(() => {
              rated = /** @type {HTMLInputElement} */ (event.currentTarget).checked;
            }),
        }),
        h("label", { for: "quick-rated" }, gettext("Rated")),
      ),
      h("button", { type: "submit" }, gettext("Play now")),
    );
  }

  function view() {
    return [h("p", { class: "error", role: "alert" }, error), entry === null ? form() : waiting()];
  }

  api.all("/rulesets/", 50).then(
    (/** @type {Ruleset[]} */ all) =>
      update(() => {
        rulesets = all;
      }),
    refused,
  );
  return { view, matchStarted: readEntry };
}
