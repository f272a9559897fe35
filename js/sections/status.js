// The panel's head: whether it follows the newest run or is pinned to an older one, whether tracing
// works and runs are being saved, the run picker, and the news of a run that started meanwhile.

import { button, fill, h } from "../dom.js";
import { fmtShortTime } from "../format.js";
import { STORE } from "../store.js";
import { runStatusLabel } from "../vocab.js";
import { Section } from "./section.js";

/** A run in a picker: "04:19:07 PM · ok · 974c19" (with the failure's kind when asked, and the server
 * it ran in when that is another server of this install: "· port 8189"). */
export function runLabel(r, { failure = false, server = null } = {}) {
  const kind = failure && r.failure ? ` (${r.failure.kind})` : "";
  const other = serverOf(r) && server && serverOf(r) !== server ? ` · ${serverName(serverOf(r))}` : "";
  return `${fmtShortTime(r.started_at)} · ${runStatusLabel(r.status)}${kind} · ${r.id.slice(0, 6)}${other}`;
}

/** The server a run ran in (host:port), where the run says. */
export const serverOf = (r) => r?.context?.server?.id ?? null;

/** "port 8189" for a server of this host, else its whole id. */
function serverName(id) {
  const port = id.split(":").pop();
  return /^\d+$/.test(port) ? `port ${port}` : id;
}

export class StatusSection extends Section {
  get on() {
    return [STORE.runs, STORE.status, STORE.live, STORE.doc];
  }

  mount() {
    this.els = {
      status: h("span", { class: "mp-status", role: "status" }),
      follow: button("Follow live", {
        icon: "pi-play",
        title: "Show each new run as it starts",
        onclick: () => this.panel.followLive(),
        "data-action": "follow",
      }),
      runs: h("select", {
        class: "mp-select mp-runs",
        "aria-label": "Run",
        onchange: (e) => this.panel.onPickRun(e.target.value),
      }),
      news: h("div", { class: "mp-news", hidden: true }),
      all: h("input", {
        type: "checkbox",
        "data-action": "all-servers",
        onchange: (e) => this.panel.store.showAllServers(e.target.checked).catch(() => {}),
      }),
    };
    this.els.servers = h(
      "label",
      { class: "mp-servers mp-muted", hidden: true, title: "ComfyUIs started from this install share its run history" },
      this.els.all,
      " runs of every server of this install",
    );
    return [
      h("div", { class: "mp-head" }, this.els.status, this.els.follow),
      this.els.runs,
      this.els.servers,
      this.els.news,
    ];
  }

  render({ store }) {
    const tracing = store.status?.tracing;
    const onScreenLive = store.isLive(store.doc);
    let text = onScreenLive ? "● Running" : store.pinned ? "Pinned to an older run" : store.doc ? "Latest run" : "Idle";
    if (tracing && !tracing.available) text += " · tracing unavailable";
    else if (tracing && !tracing.enabled) text += " · tracing off";
    const ledger = store.status?.ledger;
    const unsaved = ledger?.available && ledger.saving === false;
    if (unsaved) text += " · runs are not being saved";
    const { status, follow, runs, news } = this.els;
    status.textContent = text;
    status.className = `mp-status${onScreenLive ? " mp-live" : ""}${store.pinned ? " mp-pinned" : ""}${unsaved ? " mp-warn" : ""}`;
    status.title = unsaved
      ? `Runs are kept in memory only: ${ledger.reason || "the ledger cannot write"}`
      : tracing?.reason || "";
    follow.hidden = !store.pinned;

    const current = store.doc?.id;
    const options = store.runs.map((r) =>
      h("option", { value: r.id, selected: r.id === current }, runLabel(r, { failure: true, server: store.server })),
    );
    const others = (store.servers || []).filter((id) => id !== store.server);
    this.els.servers.hidden = !others.length;
    this.els.all.checked = !!store.allServers;
    if (store.live && !store.runs.some((r) => r.id === store.live.id)) {
      options.unshift(
        h(
          "option",
          { value: store.live.id, selected: current === store.live.id },
          `● running now · ${store.live.id.slice(0, 8)}`,
        ),
      );
    }
    fill(
      runs,
      h("option", { value: "", selected: !current }, options.length ? "Newest run (follow live)" : "No runs yet"),
      ...options,
    );
    runs.disabled = !options.length;

    const showNews = store.pinned && store.live && !onScreenLive;
    news.hidden = !showNews;
    if (showNews)
      fill(
        news,
        "● A new run is executing. ",
        button("Show it", { onclick: () => this.panel.followLive(), "data-action": "show-live" }),
      );
  }
}
