// Badges on the heaviest nodes of the run on screen, only when the open workflow is its own; their
// tone is the verdict's for the node (neutral, near the limit the OS enforces, failed).

import { fmtBytes } from "./format.js";
import { setBadges } from "./graphedit.js";
import { canActOn } from "./identity.js";
import { memoryOf } from "./memory.js";
import { heaviestNodes } from "./tabledata.js";

/** `ctx`: {app, store, panel, setting(id, fallback), fallback()}. */
export function updateBadges(ctx, doc = ctx.store.doc) {
  const { app, store, panel, setting } = ctx;
  const LGraphBadge = globalThis.LGraphBadge;
  if (!doc || store.isLive(doc) || !setting("MemProbe.Badges", true)) return setBadges(app, LGraphBadge, []);
  const memory = memoryOf(doc, ctx.fallback());
  const threshold = setting("MemProbe.BadgeThresholdMB", 256) * 1024 ** 2;
  const target = panel.target(doc);
  const badges = heaviestNodes(doc, { count: 3, threshold })
    .filter((n) => canActOn(target, doc, n.id).ok)
    .map((n) => ({ id: n.id, text: `${memory.label} ${fmtBytes(n.peak)}`, tone: n.tone }));
  return setBadges(app, LGraphBadge, badges);
}
