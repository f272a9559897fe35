// Toasts through the frontend (its newer title/description API where it has one), and the one a
// failed run gets when it ends off screen: the run's verdict, as the server judged it.

import { fmtBytes } from "./format.js";
import { headline } from "./headline.js";
import { runFailed } from "./vocab.js";

export const toasts = []; // the last few, for the browser tests and curious users

export function makeToast(app) {
  return function toast(severity, summary, detail, life = 6000) {
    toasts.push({ severity, summary, detail, at: Date.now() });
    if (toasts.length > 20) toasts.shift();
    const t = app.extensionManager?.toast;
    const method = severity === "warn" ? "warning" : severity; // the frontend's newer toast API names
    if (typeof t?.[method] === "function" && typeof t?.dismiss === "function")
      t[method](summary, { description: detail, duration: life });
    else if (t?.add) t.add({ severity, summary, detail, life });
    else console.info(`[Memory Probe] ${summary}: ${detail}`);
  };
}

/** `text` ending in a full stop (an exception's message often has none). */
const sentence = (text) => (/[.!?…]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`);

/** A run that failed while another one is on screen (or the panel is closed) is announced. */
export function announceFailure(toast, { run, shown }, panelVisible) {
  if (!runFailed(run.status)) return;
  if (shown && panelVisible) return;
  const head = headline(run);
  toast(
    "error",
    `Run failed: ${head.title}`,
    `${head.detail ? `${sentence(head.detail)} ` : ""}Open the Memory panel to see it.`,
    10000,
  );
}

/** A prompt this browser queued that its forecast says won't fit: the stage, the figures and the one
 * change. It was queued anyway: the toast informs, it never holds the queue. */
export function announceForecast(toast, detail) {
  if (detail?.verdict !== "won't fit") return;
  const where = `${detail.class_type ?? "a node"} (${detail.stage})`;
  const figure =
    detail.peak_bytes != null && detail.limit_bytes
      ? ` needs ${fmtBytes(detail.peak_bytes)} of ${fmtBytes(detail.limit_bytes)}`
      : "";
  const change = detail.change?.title ? ` Try: ${sentence(detail.change.title)}` : "";
  toast("warn", `Forecast: won't fit at ${where}`, `${where}${figure}.${change} It was queued anyway.`, 12000);
}
