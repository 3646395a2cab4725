// The lobby's form that creates a match: the ruleset, the number of players, who sits in each
// other seat (a bot of a strategy the service offers, an open seat, or an invited player: then it
// is a challenge), the deals or target, the turn clock and the house rules. Its state lives here;
// the lobby draws it (`view()`) with the rest of the page whenever either changes.

import { ApiError } from "./api.js";
import { gettext, interpolate } from "./i18n.js";
import { h } from "./vendor/preact.mjs";

/** @typedef {import("./api.js").Api} Api */
/** @typedef {import("../../types/api").Ruleset} Ruleset */
/** @typedef {import("../../types/api").MatchCreate} MatchCreate */
/** @typedef {import("../../types/api").RulesetName} RulesetName */
/** @typedef {import("../../types/api").Strategy} Strategy */
/** @typedef {import("./vendor/preact.mjs").ComponentChildren} Children */

const OPEN = "open";

/** The turn clocks offered: seconds ("" none) and their words. */
function clocks() {
  return [
    ["", gettext("No clock")],
    ["30", gettext("30 seconds a turn")],
    ["60", gettext("1 minute a turn")],
    ["120", gettext("2 minutes a turn")],
    ["300", gettext("5 minutes a turn")],
    ["3600", gettext("1 hour a turn")],
    ["86400", gettext("1 day a turn")],
  ];
}

/**
 * What an input event's target holds: the text typed or chosen.
 *
 * @param {Event} event
 */
function typed(event) {
  return /** @type {HTMLInputElement} */ (event.currentTarget).value;
}

/**
 * The new-match form's state and drawing.
 *
 * @param {Api} api
 * @param {string} username
 * @param {() => void} changed called after every change of the form's state: draw the page
 * @returns {{view: () => Children}}
 */
export function createMatchForm(api, username, changed) {
  /** @type {Ruleset[]} */
  let rulesets = [];
  let ruleset = "";
  let seats = "4";
  let invite = "";
  /** @type {Map<number, string>} what each other seat was set to */
  const chosen = new Map();
  let deals = "1";
  let target = "";
  let clock = "";
  let autoStart = true;
  /** @type {Record<string, unknown>} the house rules as the form shows them */
  let houseRules = {};
  let error = "";
  let busy = false;

  /** @param {() => void} change */
  function update(change) {
    change();
    changed();
  }

  function current() {
    return rulesets.find((entry) => entry.name === ruleset) ?? null;
  }

  function invitees() {
    return invite
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name !== "" && name !== username);
  }

  /** The number of players, within what the ruleset seats. */
  function seatCount() {
    const [low, high] = current()?.players ?? [2, 10];
    return Math.min(Math.max(Number(seats) || low, low), high);
  }

  /** @param {number} seat */
  function seatChoice(seat) {
    const strategies = current()?.bots ?? [];
    const fallback = strategies.includes("heuristic") ? "heuristic" : (strategies[0] ?? OPEN);
    return chosen.get(seat) ?? fallback;
  }

  /** @param {string} name */
  function chooseRuleset(name) {
    ruleset = name;
    chosen.clear();
    houseRules = { ...(current()?.options ?? {}) };
    seats = String(seatCount());
  }

  /** @returns {Record<string, unknown>} the options changed from the preset */
  function overrides() {
    const preset = current()?.options ?? {};
    return Object.fromEntries(Object.entries(houseRules).filter(([option, value]) => value !== preset[option]));
  }

  /** @param {SubmitEvent} event */
  async function submit(event) {
    event.preventDefault();
    const chosenRuleset = current();
    if (chosenRuleset === null) {
      return;
    }
    const invited = invitees();
    const count = seatCount();
    const bots = [];
    let openSeats = 0;
    for (let seat = invited.length + 1; seat < count; seat += 1) {
      const value = seatChoice(seat);
      if (value === OPEN) {
        openSeats += 1;
      } else {
        bots.push({ seat, strategy: /** @type {Strategy} */ (value) }); // a ruleset's `bots`
      }
    }
    const settings = {
      ruleset: /** @type {RulesetName} */ (chosenRuleset.name), // one of GET /rulesets/
      seats: count,
      options: overrides(),
      bots,
      deals: chosenRuleset.game === "shedding" ? Number(deals) || 1 : 1,
      target: target ? Number(target) : null,
      turn_seconds: clock ? Number(clock) : null,
    };
    update(() => {
      error = "";
      busy = true;
    });
    try {
      if (invited.length > 0) {
        await api.post("/challenges/", { ...settings, to: invited });
        window.location.reload();
        return;
      }
      /** @type {MatchCreate} */
      const body = { ...settings, auto_start: openSeats > 0 && autoStart };
      const match = await api.post("/matches/", body);
      if (openSeats === 0) {
        await api.post(`/matches/${match.id}/start/`);
      }
      window.location.assign(`/play/matches/${match.id}/`);
    } catch (failure) {
      if (!(failure instanceof ApiError)) {
        throw failure;
      }
      update(() => {
        error = failure.describe();
        busy = false;
      });
    }
  }

  /** One row per other seat: an invited player, or a choice of bot or open seat. */
  function seatRows() {
    const chosenRuleset = current();
    const invited = invitees();
    const rows = [];
    for (let seat = 1; seat < seatCount(); seat += 1) {
      const label = interpolate(gettext("Seat %(number)s"), { number: seat + 1 });
      if (seat <= invited.length) {
        rows.push(
          h(
            "p",
            { class: "field", key: seat },
            h("span", { class: "label" }, label),
            h("span", {}, interpolate(gettext("%(player)s (invited)"), { player: invited[seat - 1] })),
          ),
        );
        continue;
      }
      const value = seatChoice(seat);
      rows.push(
        h(
          "p",
          { class: "field", key: seat },
          h("label", { for: `seat-${seat}` }, label),
          h(
            "select",
            {
              id: `seat-${seat}`,
              name: `seat-${seat}`,
              value,
              onChange: (/** @type {Event} */ event) => update(() => chosen.set(seat, typed(event))),
            },
            (chosenRuleset?.bots ?? []).map((strategy) =>
              h("option", { value: strategy, key: strategy }, interpolate(gettext("Bot: %(strategy)s"), { strategy })),
            ),
            invited.length > 0 ? null : h("option", { value: OPEN, key: OPEN }, gettext("Open: a player joins")),
          ),
        ),
      );
    }
    return rows;
  }

  /** One input per plain option of the preset, showing the value the table will play. */
  function houseRuleFields() {
    const chosenRuleset = current();
    if (chosenRuleset === null || chosenRuleset.game !== "shedding") {
      return h("p", {}, gettext("This game has no house rules."));
    }
    const fields = Object.entries(chosenRuleset.options).flatMap(([option, preset]) => {
      const id = `option-${option}`;
      const value = houseRules[option];
      // The option's name as the rules (§6) and the API write it, which no language changes.
      const label = h("label", { for: id }, option.replaceAll("_", " "));
      /** @param {unknown} next */
      const set = (next) => update(() => (houseRules = { ...houseRules, [option]: next }));
      /** @param {Children} input */
      const field = (input) => [h("p", { class: "field", key: option }, label, input)];
      if (typeof preset === "boolean") {
        return [
          h(
            "p",
            { class: "field check", key: option },
            h("input", {
              id,
              type: "checkbox",
              checked: value === true,
              onChange: (/** @type {Event} */ event) =>
                set(/** @type {HTMLInputElement} */ (event.currentTarget).checked),
            }),
            label,
          ),
        ];
      }
      if (typeof preset === "number" || (preset === null && option.startsWith("max_"))) {
        return field(
          h("input", {
            id,
            type: "number",
            min: 0,
            value: value === null || value === undefined ? "" : String(value),
            placeholder: gettext("no limit"),
            onInput: (/** @type {Event} */ event) => set(typed(event) === "" ? null : Number(typed(event))),
          }),
        );
      }
      if (typeof preset === "string") {
        return field(
          h("input", { id, value: String(value ?? ""), onInput: (/** @type {Event} */ event) => set(typed(event)) }),
        );
      }
      return [];
    });
    return [h("p", {}, gettext("Change what your table plays differently from the preset (docs: rules §3).")), fields];
  }

  function view() {
    const chosenRuleset = current();
    const [low, high] = chosenRuleset?.players ?? [2, 10];
    const invited = invitees();
    const openSeats = Array.from({ length: seatCount() }, (_, seat) => seat)
      .slice(invited.length + 1)
      .filter((seat) => seatChoice(seat) === OPEN).length;
    return h(
      "form",
      { class: "match-form", "aria-labelledby": "new-title", onSubmit: submit },
      h(
        "p",
        { class: "field" },
        h("label", { for: "ruleset" }, gettext("Game")),
        h(
          "select",
          {
            id: "ruleset",
            name: "ruleset",
            value: ruleset,
            onChange: (/** @type {Event} */ event) => update(() => chooseRuleset(typed(event))),
          },
          [
            ["shedding", gettext("Shedding Switch")],
            ["abbott", gettext("Abbott's Switch")],
          ].map(([game, label]) =>
            h(
              "optgroup",
              { label, key: game },
              rulesets
                .filter((entry) => entry.game === game)
                .map((entry) => h("option", { value: entry.name, key: entry.name }, `${entry.title} (${entry.name})`)),
            ),
          ),
        ),
      ),
      h("p", { class: "description" }, chosenRuleset?.description ?? ""),
      h(
        "p",
        { class: "field" },
        h("label", { for: "seats" }, gettext("Number of players")),
        h("input", {
          id: "seats",
          name: "seats",
          type: "number",
          min: low,
          max: high,
          readOnly: low === high,
          required: true,
          value: seats,
          onInput: (/** @type {Event} */ event) => update(() => (seats = typed(event))),
          onChange: () => update(() => (seats = String(seatCount()))),
        }),
      ),
      h(
        "p",
        { class: "field" },
        h("label", { for: "invite" }, gettext("Invite by username (a challenge; comma-separated)")),
        h("input", {
          id: "invite",
          name: "invite",
          autocomplete: "off",
          placeholder: gettext("bob, carol"),
          value: invite,
          onInput: (/** @type {Event} */ event) => update(() => (invite = typed(event))),
        }),
      ),
      h("div", { class: "seat-rows" }, seatRows()),
      chosenRuleset?.game === "abbott"
        ? null
        : h(
            "p",
            { class: "field" },
            h("label", { for: "deals" }, gettext("Deals")),
            h("input", {
              id: "deals",
              name: "deals",
              type: "number",
              min: 1,
              max: 100,
              value: deals,
              onInput: (/** @type {Event} */ event) => update(() => (deals = typed(event))),
            }),
          ),
      h(
        "p",
        { class: "field" },
        h("label", { for: "target" }, gettext("Play to a target score")),
        h("input", {
          id: "target",
          name: "target",
          type: "number",
          min: 1,
          max: 100000,
          placeholder: gettext("no limit"),
          value: target,
          onInput: (/** @type {Event} */ event) => update(() => (target = typed(event))),
        }),
      ),
      h(
        "p",
        { class: "field" },
        h("label", { for: "clock" }, gettext("Turn clock")),
        h(
          "select",
          {
            id: "clock",
            name: "clock",
            value: clock,
            onChange: (/** @type {Event} */ event) => update(() => (clock = typed(event))),
          },
          clocks().map(([value, label]) => h("option", { value, key: value }, label)),
        ),
      ),
      openSeats === 0
        ? null
        : h(
            "p",
            { class: "field check" },
            h("input", {
              id: "auto-start",
              name: "auto_start",
              type: "checkbox",
              checked: autoStart,
              onChange: (/** @type {Event} */ event) =>
                update(() => (autoStart = /** @type {HTMLInputElement} */ (event.currentTarget).checked)),
            }),
            h("label", { for: "auto-start" }, gettext("Start as soon as every seat is taken")),
          ),
      h("details", {}, h("summary", {}, gettext("House rules")), houseRuleFields()),
      h(
        "p",
        { class: "buttons" },
        h(
          "button",
          { type: "submit", disabled: busy || chosenRuleset === null },
          invited.length > 0 ? gettext("Send challenge") : gettext("Create match"),
        ),
      ),
      h("p", { class: "error", role: "alert" }, error),
    );
  }

  api.all("/rulesets/", 50).then(
    (/** @type {Ruleset[]} */ list) =>
      update(() => {
        rulesets = list;
        chooseRuleset(list[0]?.name ?? "");
      }),
    (failure) => update(() => (error = failure instanceof ApiError ? failure.describe() : String(failure))),
  );
  return { view };
}
