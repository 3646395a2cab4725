// The table page, /play/matches/N/: the signed-in player's seat at match N, or the spectator's
// view of it (any signed-in player may watch any match: docs/api.md, "Matches").

import { byId, fill } from "./dom.js";
import { signedIn, signInForm } from "./signin.js";
import { mountTable } from "./table.js";

/** @typedef {import("./api.js").Api} Api */

const root = byId("table");
const matchId = Number(root.dataset.match);

/** @param {{api: Api}} session */
function open({ api }) {
  mountTable(root, { api, matchId });
}

signedIn().then((session) => {
  if (session === null) {
    fill(root, signInForm(open));
  } else {
    open(session);
  }
});
