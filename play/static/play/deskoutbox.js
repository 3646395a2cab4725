// The desk's result form when the venue's network is down: "Save the result" keeps the filled
// form in this browser (with its one-time key, the hidden `submission` field, so that the desk
// saves it once however often it arrives) and says it is waiting to send; when the browser is
// back online — on this page or the desk's — it is sent, and the page says so. Loaded by the
// desk's pages in the admin (tournaments' change_form.html and result.html); beside the web
// client because it is the same outbox as the players' phones. Words come from the page's
// catalogue.

import { gettext, interpolate } from "./i18n.js";
import { Outbox } from "./outbox.js";

/** @typedef {import("./outbox.js").OutboxState} OutboxState */

/** The desk refused what was sent: the form came back with its problems, or a login page. */
class Refused extends Error {
  /** @param {string} detail */
  constructor(detail) {
    super(detail);
    this.status = 400;
    this.detail = detail;
  }
}

const outbox = new Outbox({
  storage: window.localStorage,
  name: "switch.desk.outbox",
  async send(item) {
    const answer = await fetch(item.path, {
      method: "POST",
      body: String(item.body),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      credentials: "same-origin",
    });
    // Saved: the desk answers with a redirect back to the tournament's page.
    if (!answer.redirected) {
      throw new Refused(gettext("The desk did not save it: open the table's result again to see why."));
    }
  },
  offline: (failure) => !(failure instanceof Refused),
});

const status = document.getElementById("desk-outbox");

/** @param {OutboxState} state */
function show({ waiting, sent, refused }) {
  if (!status) return;
  const lines = [
    ...waiting.map((item) =>
      interpolate(gettext("Waiting to send: %(what)s. It is kept in this browser until the network is back."), {
        what: item.label,
      }),
    ),
    ...sent.slice(-1).map((item) => interpolate(gettext("Sent: %(what)s."), { what: item.label })),
    ...refused
      .slice(-1)
      .map(({ item, failure }) =>
        interpolate(gettext("Not accepted: %(what)s. %(why)s"), { what: item.label, why: failure?.detail ?? "" }),
      ),
  ];
  status.textContent = lines.join(" ");
}

const form = document.getElementById("result-form");
if (form instanceof HTMLFormElement) {
  form.addEventListener("submit", (event) => {
    if (navigator.onLine) return; // the desk takes it as usual
    event.preventDefault();
    const submitter = event.submitter;
    if (!(submitter instanceof HTMLInputElement) || submitter.name !== "_save") {
      if (status)
        status.textContent = gettext(
          "Offline: the totals need the network. Save keeps the result here until it is back.",
        );
      return;
    }
    const fields = new URLSearchParams();
    for (const [name, value] of new FormData(form, submitter)) {
      fields.append(name, String(value));
    }
    outbox.add({ path: form.action || window.location.href, body: fields.toString(), label: form.dataset.label ?? "" });
  });
}

outbox.listen(show);
outbox.watch(window);
