// The table page, /play/matches/N/: the signed-in player's seat at match N, or the spectator's
// view of it (any signed-in player may watch any match: docs/api.md, "Matches").

import { byId, whenSignedIn } from "./signin.js";
import { mountTable } from "./table.js";

const root = byId("table");
const matchId = Number(root.dataset.match);

whenSignedIn(root, ({ api }) => mountTable(root, { api, matchId }));
