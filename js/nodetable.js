// The Nodes table of the Memory sidebar: the run's top nodes by one memory (the headline's by
// default; chips switch it), sortable from the keyboard, a row selecting its node on the canvas.
// Rows come from tabledata.js (pure, tested with node --test); this module draws them.

import { stageColor } from "./colors.js";
import { button, fill, h } from "./dom.js";
import { fmtBytes, fmtSeconds } from "./format.js";
import { memoryOf } from "./memory.js";
import { memoryColumns, sortRows, tableRows } from "./tabledata.js";
import { nodeStatusLabel } from "./vocab.js";

const TOP_NODES = 8;
const EXACT_PEAK = "exact: from the peak counter the operating system (or torch) keeps";
const SAMPLED_PEAK = "sampled: the highest reading; a short spike between two readings can go higher";
const PEAK_NOTE =
  "≥ marks a sampled peak (the highest reading); the others are exact, from the OS's or torch's own peak counters. VRAM in use (NVML) has no such counter.";
export class NodeTable {
  /** `fallback()`: the live status's memory (for a run without its own); `onFocus(executionId)`. */
  constructor({ fallback, onFocus }) {
    this.fallback = fallback;
    this.onFocus = onFocus;
    this.doc = null;
    this.els = null;
    this.sort = null; // {key, direction}; null: by the headline metric's peak
    this.shownSort = null; // the order on screen (this.sort, or the default)
    this.metric = null; // the table's memory; null: the headline metric
    this.allNodes = false;
  }

  /** New elements for a (re)opened sidebar tab; the chosen memory and order are kept. */
  mount() {
    this.els = {
      metrics: h("div", { class: "mp-metrics", role: "group", "aria-label": "Memory shown in the table" }),
      table: h("table", { class: "mp-table", "data-testid": "memprobe-table", "aria-labelledby": "mp-nodes-title" }),
      more: h("div", { class: "mp-more" }),
    };
    const title = h("h4", { id: "mp-nodes-title" }, "Nodes");
    return [h("div", { class: "mp-nodes-head" }, title, this.els.metrics), this.els.table, this.els.more];
  }

  /** Draw run `doc`'s nodes (null: none yet). */
  render(doc) {
    if (!this.els) return;
    this.doc = doc;
    const memory = doc ? memoryOf(doc, this.fallback()) : null;
    const columns = memoryColumns(doc, memory?.metric);
    const metric = columns.find((c) => c.key === this.metric)?.key ?? columns[0]?.key ?? null;
    fill(
      this.els.metrics,
      ...(columns.length > 1 ? columns : []).map((c) =>
        h(
          "button",
          {
            type: "button",
            class: `mp-chip-btn${c.key === metric ? " mp-on" : ""}`,
            "aria-pressed": String(c.key === metric),
            "data-metric": c.key,
            onclick: () => this.setMetric(c.key),
          },
          c.label,
        ),
      ),
    );
    if (!doc || !(doc.nodes || []).length) {
      fill(
        this.els.table,
        h("tbody", {}, h("tr", {}, h("td", { class: "mp-muted" }, doc ? "No node has run yet." : "No run yet."))),
      );
      fill(this.els.more);
      return;
    }
    const sort = this.sort ?? { key: metric ? `${metric}:peak` : "seq", direction: metric ? "desc" : "asc" };
    this.shownSort = sort; // what a click on a header turns round
    const rows = sortRows(tableRows(doc), sort.key, sort.direction);
    const shown = this.allNodes ? rows : rows.slice(0, TOP_NODES);
    const head = [["title", "Node"], ["time", "Time"], ...(metric ? [[`${metric}:peak`, "Peak"]] : [])];
    const ariaSort = (key) => (sort.key === key ? (sort.direction === "asc" ? "ascending" : "descending") : "none");
    fill(
      this.els.table,
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ...head.map(([key, label]) =>
            h(
              "th",
              {
                scope: "col",
                "aria-sort": ariaSort(key),
                "data-key": key,
                class: key === "time" ? "mp-num mp-col-time" : key.endsWith(":peak") ? "mp-num" : null,
              },
              h(
                "button",
                { type: "button", class: "mp-sort", onclick: () => this.sortBy(key) },
                label,
                h(
                  "span",
                  { class: "mp-arrow", "aria-hidden": "true" },
                  sort.key === key ? (sort.direction === "asc" ? " ▲" : " ▼") : "",
                ),
              ),
            ),
          ),
        ),
      ),
      h("tbody", {}, ...shown.map((r) => this.row(r, metric))),
    );
    if (metric && shown.some((r) => r[`${metric}:peak`] != null && !r[`${metric}:exact`])) {
      this.els.table.prepend(h("caption", { class: "mp-sub mp-peak-note" }, PEAK_NOTE));
    }
    fill(
      this.els.more,
      rows.length > TOP_NODES
        ? button(this.allNodes ? `Show the top ${TOP_NODES}` : `Show all ${rows.length} nodes`, {
            onclick: () => {
              this.allNodes = !this.allNodes;
              this.render(this.doc);
            },
            "data-action": "all-nodes",
          })
        : null,
    );
  }

  row(r, metric) {
    const peak = metric ? r[`${metric}:peak`] : null;
    const added = metric ? r[`${metric}:added`] : null;
    const sampled = peak != null && !r[`${metric}:exact`];
    const time = r.status === "ran" ? fmtSeconds(r.time) : nodeStatusLabel(r.status);
    const focus = () => this.onFocus(r.id);
    return h(
      "tr",
      {
        class: `mp-row mp-${r.status}`,
        "data-node": r.id,
        tabindex: "0",
        "aria-label": `${r.title}, ${r.stage}${peak != null ? `, peak ${fmtBytes(peak)}` : ""}: select it on the canvas`,
        title: r.fallbacks.length
          ? `fallbacks: ${r.fallbacks.join(", ")}`
          : `node ${r.id}: click to select it on the canvas`,
        onclick: focus,
        onkeydown: (e) => {
          if (e.key === "Enter" || e.key === " ") {
            e.preventDefault();
            focus();
          }
        },
      },
      h(
        "td",
        { class: "mp-node", title: r.models.title || null },
        h(
          "div",
          { class: "mp-name" },
          r.title,
          r.fallbacks.length
            ? h("span", { class: "mp-warn", title: `fallbacks: ${r.fallbacks.join(", ")}` }, " ⚠")
            : null,
        ),
        h(
          "div",
          { class: "mp-sub" },
          h("span", { class: "mp-chip", style: `background:${stageColor(r.stage)}` }, r.stage),
          r.title !== r.type ? ` ${r.type}` : "",
          h("span", { class: "mp-time-inline" }, ` · ${time}`), // where the sidebar is too narrow for a Time column
        ),
        r.models.changed
          ? h("div", { class: `mp-sub mp-models${r.models.partial ? " mp-partial" : ""}` }, r.models.text)
          : null,
      ),
      h("td", { class: "mp-num mp-col-time" }, time),
      metric
        ? h(
            "td",
            { class: "mp-num mp-peak", title: peak == null ? null : sampled ? SAMPLED_PEAK : EXACT_PEAK },
            (sampled ? "≥ " : "") + fmtBytes(peak),
            added != null
              ? h(
                  "div",
                  { class: "mp-sub", title: "added while it ran (peak − before)" },
                  fmtBytes(added, { signed: true }),
                )
              : null,
          )
        : null,
    );
  }

  setMetric(key) {
    this.metric = key;
    this.sort = null;
    this.render(this.doc);
  }

  sortBy(key) {
    const current = this.sort ?? this.shownSort ?? { key: null };
    // names start A to Z, numbers largest first; a second click turns the order round
    const first = key === "title" ? "asc" : "desc";
    const direction = current.key === key ? (current.direction === "asc" ? "desc" : "asc") : first;
    this.sort = { key, direction };
    this.render(this.doc);
    this.els.table.querySelector(`th[data-key="${CSS.escape(key)}"] button`)?.focus();
  }
}
