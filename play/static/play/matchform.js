// The lobby's form that creates a match: the ruleset, the number of players, who sits in each
// other seat (a bot of a strategy the service offers, an open seat, or an invited player: then it
// is a challenge), the deals or target, the turn clock and the house rules.

import { ApiError } from "./api.js";
import { fill, h } from "./dom.js";

/** @typedef {import("./api.js").Api} Api */
/** @typedef {import("../../types/api").Ruleset} Ruleset */
/** @typedef {import("../../types/api").MatchCreate} MatchCreate */

const CLOCKS = [
  ["", "No clock"],
  ["30", "30 seconds a turn"],
  ["60", "1 minute a turn"],
  ["120", "2 minutes a turn"],
  ["300", "5 minutes a turn"],
  ["3600", "1 hour a turn"],
  ["86400", "1 day a turn"],
];
const OPEN = "open";

/**
 * Create a match: the ruleset, the number of players, who sits in each other seat (a bot, an
 * open seat, or an invited player: then it is a challenge), the deals or target, the turn
 * clock and the house rules.
 *
 * @param {Api} api
 * @param {string} username
 */
export function newMatchForm(api, username) {
  const error = h("p", { class: "error", role: "alert" });
  const ruleset = h("select", { id: "ruleset", name: "ruleset" });
  const seats = h("input", {
    id: "seats",
    name: "seats",
    type: "number",
    min: "2",
    max: "10",
    value: "4",
    required: true,
  });
  const invite = h("input", { id: "invite", name: "invite", autocomplete: "off", placeholder: "bob, carol" });
  const seatRows = h("div", { class: "seat-rows" });
  const deals = h("input", { id: "deals", name: "deals", type: "number", min: "1", max: "100", value: "1" });
  const target = h("input", {
    id: "target",
    name: "target",
    type: "number",
    min: "1",
    max: "100000",
    placeholder: "none",
  });
  const clock = h(
    "select",
    { id: "clock", name: "clock" },
    CLOCKS.map(([value, label]) => h("option", { value }, label)),
  );
  const autoStart = h("input", { id: "auto-start", name: "auto_start", type: "checkbox", checked: true });
  const houseRules = h("div", { class: "house-rules" });
  const submit = h("button", { type: "submit" }, "Create match");
  const dealsField = h("p", { class: "field" }, h("label", { for: "deals" }, "Deals"), deals);
  const autoStartField = h(
    "p",
    { class: "field check" },
    autoStart,
    h("label", { for: "auto-start" }, "Start as soon as every seat is taken"),
  );
  /** @type {Ruleset[]} */
  let rulesets = [];
  /** @type {Map<number, string>} what each other seat was set to, kept across redraws */
  const chosen = new Map();

  const form = h(
    "form",
    { class: "match-form", "aria-labelledby": "new-title" },
    h("p", { class: "field" }, h("label", { for: "ruleset" }, "Game"), ruleset),
    h("p", { class: "description", id: "ruleset-description" }),
    h("p", { class: "field" }, h("label", { for: "seats" }, "Number of players"), seats),
    h(
      "p",
      { class: "field" },
      h("label", { for: "invite" }, "Invite by username (a challenge; comma-separated)"),
      invite,
    ),
    seatRows,
    dealsField,
    h("p", { class: "field" }, h("label", { for: "target" }, "Play to a target score"), target),
    h("p", { class: "field" }, h("label", { for: "clock" }, "Turn clock"), clock),
    autoStartField,
    h("details", {}, h("summary", {}, "House rules"), houseRules),
    h("p", { class: "buttons" }, submit),
    error,
  );

  function current() {
    return rulesets.find((entry) => entry.name === ruleset.value) ?? null;
  }

  function invitees() {
    return invite.value
      .split(",")
      .map((name) => name.trim())
      .filter((name) => name !== "" && name !== username);
  }

  /** Redraw what depends on the ruleset, the number of players and the invitations. */
  function redraw() {
    const chosenRuleset = current();
    if (chosenRuleset === null) {
      return;
    }
    const [low, high] = chosenRuleset.players;
    seats.min = String(low);
    seats.max = String(high);
    seats.readOnly = low === high;
    const count = Math.min(Math.max(Number(seats.value) || low, low), high);
    seats.value = String(count);
    const description = form.querySelector("#ruleset-description");
    if (description) {
      description.textContent = chosenRuleset.description;
    }
    dealsField.hidden = chosenRuleset.game !== "shedding";
    const invited = invitees();
    const rows = [];
    for (let seat = 1; seat < count; seat += 1) {
      const id = `seat-${seat}`;
      if (seat <= invited.length) {
        rows.push(
          h(
            "p",
            { class: "field" },
            h("span", { class: "label" }, `Seat ${seat + 1}`),
            h("span", {}, `${invited[seat - 1]} (invited)`),
          ),
        );
        continue;
      }
      const strategies = chosenRuleset.bots;
      const fallback = strategies.includes("heuristic") ? "heuristic" : (strategies[0] ?? OPEN);
      const value = chosen.get(seat) ?? fallback;
      const select = h(
        "select",
        {
          id,
          name: id,
          onchange: (event) => {
            chosen.set(seat, /** @type {HTMLSelectElement} */ (event.target).value);
            redraw();
          },
        },
        strategies.map((strategy) =>
          h("option", { value: strategy, selected: value === strategy }, `Bot: ${strategy}`),
        ),
        invited.length > 0 ? null : h("option", { value: OPEN, selected: value === OPEN }, "Open: a player joins"),
      );
      rows.push(h("p", { class: "field" }, h("label", { for: id }, `Seat ${seat + 1}`), select));
    }
    fill(seatRows, rows);
    const openSeats = Array.from(seatRows.querySelectorAll("select")).filter((select) => select.value === OPEN).length;
    autoStartField.hidden = openSeats === 0;
    submit.textContent = invited.length > 0 ? "Send challenge" : "Create match";
  }

  /** The house-rule inputs: one per plain option of the preset, prefilled with its value. */
  function drawHouseRules() {
    const chosenRuleset = current();
    if (chosenRuleset === null || chosenRuleset.game !== "shedding") {
      fill(houseRules, h("p", {}, "This game has no house rules."));
      return;
    }
    const fields = Object.entries(chosenRuleset.options).flatMap(([option, value]) => {
      const id = `option-${option}`;
      const label = h("label", { for: id }, option.replaceAll("_", " "));
      if (typeof value === "boolean") {
        return [
          h(
            "p",
            { class: "field check" },
            h("input", { id, type: "checkbox", "data-option": option, checked: value }),
            label,
          ),
        ];
      }
      if (typeof value === "number" || (value === null && option.startsWith("max_"))) {
        return [
          h(
            "p",
            { class: "field" },
            label,
            h("input", {
              id,
              type: "number",
              min: "0",
              "data-option": option,
              value: value ?? "",
              placeholder: "none",
            }),
          ),
        ];
      }
      if (typeof value === "string") {
        return [h("p", { class: "field" }, label, h("input", { id, "data-option": option, value }))];
      }
      return [];
    });
    fill(houseRules, h("p", {}, "Change what your table plays differently from the preset (docs: rules §3)."), fields);
  }

  /** @returns {Record<string, unknown>} the options changed from the preset */
  function houseRuleOverrides() {
    const preset = current()?.options ?? {};
    /** @type {Record<string, unknown>} */
    const overrides = {};
    for (const input of Array.from(houseRules.querySelectorAll("input"))) {
      const option = input.dataset.option;
      if (!option) {
        continue;
      }
      /** @type {unknown} */
      let value = input.value;
      if (input.type === "checkbox") {
        value = input.checked;
      } else if (input.type === "number") {
        value = input.value === "" ? null : Number(input.value);
      }
      if (value !== preset[option]) {
        overrides[option] = value;
      }
    }
    return overrides;
  }

  ruleset.addEventListener("change", () => {
    chosen.clear();
    redraw();
    drawHouseRules();
  });
  seats.addEventListener("input", redraw);
  invite.addEventListener("input", redraw);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    const chosenRuleset = current();
    if (chosenRuleset === null) {
      return;
    }
    const invited = invitees();
    const count = Number(seats.value);
    const bots = [];
    let openSeats = 0;
    for (let seat = invited.length + 1; seat < count; seat += 1) {
      const select = seatRows.querySelector(`#seat-${seat}`);
      const value = select instanceof HTMLSelectElement ? select.value : OPEN;
      if (value === OPEN) {
        openSeats += 1;
      } else {
        bots.push({ seat, strategy: value });
      }
    }
    const settings = {
      ruleset: chosenRuleset.name,
      seats: count,
      options: houseRuleOverrides(),
      bots,
      deals: chosenRuleset.game === "shedding" ? Number(deals.value) || 1 : 1,
      target: target.value ? Number(target.value) : null,
      turn_seconds: clock.value ? Number(clock.value) : null,
    };
    submit.disabled = true;
    try {
      if (invited.length > 0) {
        await api.post("/challenges/", { ...settings, to: invited });
        window.location.reload();
        return;
      }
      /** @type {MatchCreate} */
      const body = { ...settings, auto_start: openSeats > 0 && autoStart.checked };
      const match = await api.post("/matches/", body);
      if (openSeats === 0) {
        await api.post(`/matches/${match.id}/start/`);
      }
      window.location.assign(`/play/matches/${match.id}/`);
    } catch (failure) {
      if (!(failure instanceof ApiError)) {
        throw failure;
      }
      error.textContent = failure.describe();
    } finally {
      submit.disabled = false;
    }
  });

  api.all("/rulesets/", 50).then(
    (/** @type {Ruleset[]} */ list) => {
      rulesets = list;
      const groups = [
        ["shedding", "Shedding Switch"],
        ["abbott", "Abbott's Switch"],
      ].map(([game, label]) =>
        h(
          "optgroup",
          { label },
          list
            .filter((entry) => entry.game === game)
            .map((entry) => h("option", { value: entry.name }, `${entry.title} (${entry.name})`)),
        ),
      );
      fill(ruleset, groups);
      redraw();
      drawHouseRules();
    },
    (failure) => {
      error.textContent = failure instanceof ApiError ? failure.describe() : String(failure);
    },
  );
  return form;
}
