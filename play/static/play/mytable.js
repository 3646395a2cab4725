// A member's own table at a club night played with real cards, /play/tournaments/N/: where they
// sit, the result to report, confirm or dispute, and the check-in. The check-in poster's QR code
// leads here; a guest uses the seat link of their own card instead.

import { gettext } from "./i18n.js";
import { mountOfflineTable } from "./offlinetable.js";
import { byId, whenSignedIn } from "./signin.js";

const root = byId("mytable");
const tournament = Number(root.dataset.tournament);

whenSignedIn(root, ({ api, username }) => {
  mountOfflineTable(root, {
    api,
    tournament,
    storage: `switch.outbox.${username}`,
    heading: gettext("Your table"),
  });
});
