// What the panel does to the graph and to ComfyUI: apply a suggestion's change, undo it, open
// the run's own workflow, select a node, free memory, export a report. Each graph action acts
// only on the run's own workflow (identity.js decides; a node id alone never does) and says why
// when it does not. No rendering here: cards.js draws the buttons, panel.js lays them out.

import { h } from "./dom.js";
import { applyTiledSwap, applyWidgetValue, focusNode } from "./graphedit.js";
import { resolveExecutionId } from "./graphlocate.js";
import { canActOn, findWorkflow, nodeMatchesPrompt, openWorkflow, realId, runTarget } from "./identity.js";
import { planSwap } from "./swap.js";

const TITLE = "Memory Probe";

export class GraphActions {
  /** `ctx`: {app, api, toast(severity, summary, detail), LiteGraph}; `onChanged()`: the graph changed. */
  constructor(ctx, onChanged = () => {}) {
    this.ctx = ctx;
    this.onChanged = onChanged;
    this.applied = new Map(); // `${runId}|${suggestionId}` -> {executionId, tiledId}
    this.rebuilt = new WeakMap(); // frontend workflow object -> the run workflow id it was rebuilt from
  }

  get app() {
    return this.ctx.app;
  }

  /** The run's workflow against the open one (identity.js's runTarget). */
  target(doc) {
    return runTarget(doc, this.app, this.rebuilt);
  }

  /** The frontend's workflow this run came from, when it is still open in a tab. */
  ownWorkflow(doc) {
    return findWorkflow(this.app, doc?.workflow?.id);
  }

  /** Whether suggestion `s` of `doc` may change the open graph: {ok} or {ok: false, reason,
   * otherWorkflow, here}; `here`: another workflow is open that has the same node with the same
   * links, so the change can go there instead if the user asks. */
  check(doc, s) {
    const target = this.target(doc);
    const check = canActOn(target, doc, s.action.node_id);
    if (check.ok) return { ...check, target };
    const here = !!(
      check.otherWorkflow &&
      doc.prompt &&
      nodeMatchesPrompt(target.open.root, doc.prompt, s.action.node_id).ok
    );
    return { ...check, target, here };
  }

  /** Apply suggestion `s` of run `doc` to the run's own workflow (`here`: to the open one, which
   * has the same node with the same links). Returns {ok} or {ok: false, reason}. */
  apply(doc, s, { here = false } = {}) {
    const action = s.action;
    const check = this.check(doc, s);
    let result;
    if (!check.ok && !(here && check.here)) result = { ok: false, reason: check.reason };
    else if (action.type === "swap_vae_decode") result = this.applySwap(doc, s, check.target);
    else result = applyWidgetValue(this.app, action.node_id, action.widget, action.value);
    if (!result.ok) this.ctx.toast("warn", TITLE, result.reason);
    else if (action.type === "set_widget") {
      this.ctx.toast(
        "success",
        TITLE,
        `${action.widget} set to ${action.value} on node ${action.node_id}. Undo puts it back.`,
      );
    }
    this.onChanged();
    return result;
  }

  /** Apply suggestion `s` of the open workflow's forecast: its node ids are the open graph's own. */
  applyToOpen(s) {
    const action = s.action;
    const root = openWorkflow(this.app).root;
    let result;
    if (!root) result = { ok: false, reason: "No workflow is open." };
    else if (action.type === "swap_vae_decode") {
      const plan = planSwap(root, action.node_id);
      result = plan.ok ? applyTiledSwap(this.app, this.ctx.LiteGraph, action.node_id, action, plan) : plan;
    } else result = applyWidgetValue(this.app, action.node_id, action.widget, action.value);
    if (!result.ok) this.ctx.toast("warn", TITLE, result.reason);
    else
      this.ctx.toast(
        "success",
        TITLE,
        action.type === "swap_vae_decode"
          ? `Node ${action.node_id} now decodes in tiles (tile ${result.settings.tile_size}). Undo puts the original back.`
          : `${action.widget} set to ${action.value} on node ${action.node_id}. Undo puts it back.`,
      );
    this.onChanged();
    return result;
  }

  applySwap(doc, s, target) {
    const action = s.action;
    const plan = planSwap(target.open.root, action.node_id);
    if (!plan.ok) return plan;
    const result = applyTiledSwap(this.app, this.ctx.LiteGraph, action.node_id, action, plan);
    if (result.ok) {
      const id = String(action.node_id);
      const prefix = id.includes(":") ? id.replace(/:[^:]*$/, ":") : "";
      this.applied.set(`${doc.id}|${s.id}`, { executionId: id, tiledId: `${prefix}${result.node.id}` });
      const t = result.settings;
      this.ctx.toast(
        "success",
        "VAE Decode (Tiled) in place",
        `Node ${action.node_id} now decodes in tiles (tile ${t.tile_size}, overlap ${t.overlap}). Undo puts the original back.`,
      );
    }
    return result;
  }

  /** The change of suggestion `s` is in the graph now (not undone since). */
  appliedState(doc, s) {
    const entry = this.applied.get(`${doc?.id}|${s.id}`);
    if (!entry) return null;
    const root = this.target(doc).open.root;
    const tiled = resolveExecutionId(root, entry.tiledId)?.node;
    const original = resolveExecutionId(root, entry.executionId)?.node;
    // kept after an undo: a redo brings the change (the same node) back
    return tiled?.type === "VAEDecodeTiled" && original?.type !== "VAEDecode" ? entry : null;
  }

  undo() {
    const command = this.app.extensionManager?.command;
    if (command?.execute) command.execute("Comfy.Undo");
    else this.ctx.toast("info", TITLE, "Press Ctrl+Z on the canvas to undo.");
  }

  /** Select a node of run `doc` on the canvas, if the run's workflow is the open one. */
  focus(doc, executionId) {
    const check = doc ? canActOn(this.target(doc), doc, executionId) : { ok: false, reason: "Pick a run first." };
    if (!check.ok) {
      const reason = check.otherWorkflow
        ? `Node ${executionId} belongs to this run's own workflow, which is not the one open. Open it from the panel first.`
        : check.reason;
      this.ctx.toast("warn", TITLE, reason);
      return false;
    }
    if (!focusNode(this.app, executionId)) {
      this.ctx.toast("warn", TITLE, `Node ${executionId} is not in the open workflow.`);
      return false;
    }
    return true;
  }

  /** Bring the run's own workflow on screen: its open tab, or a new tab with the graph it ran. */
  async openRunWorkflow(doc) {
    const app = this.app;
    const own = this.ownWorkflow(doc);
    try {
      if (own) {
        if (!own.isLoaded && typeof own.load === "function") await own.load();
        const state = JSON.parse(JSON.stringify(own.activeState ?? own.initialState));
        await app.loadGraphData(state, true, true, own, {
          showMissingModelsDialog: false,
          showMissingNodesDialog: false,
        });
      } else if (doc.prompt) {
        const store = app.extensionManager?.workflow;
        const before = store?.activeWorkflow;
        await app.loadApiJson(doc.prompt, `run ${doc.id.slice(0, 8)}`);
        for (let i = 0; i < 50 && store?.activeWorkflow === before; i++) await new Promise((r) => setTimeout(r, 40));
        const runId = realId(doc.workflow?.id);
        if (runId && store?.activeWorkflow && store.activeWorkflow !== before)
          this.rebuilt.set(store.activeWorkflow, runId);
      }
    } catch (e) {
      this.ctx.toast("error", TITLE, `Could not open the run's workflow: ${e.message}`);
    }
    this.onChanged();
  }

  async freeMemory() {
    try {
      await this.ctx.api.fetchApi("/free", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ unload_models: true, free_memory: true }),
      });
      this.ctx.toast("success", TITLE, "ComfyUI is unloading its models and freeing cached memory.");
    } catch (e) {
      this.ctx.toast("error", TITLE, `Free memory failed: ${e.message}`);
    }
  }

  async exportReport(doc) {
    if (!doc?.id) return this.ctx.toast("warn", TITLE, "Pick a run first.");
    try {
      const response = await this.ctx.api.fetchApi(`/memprobe/runs/${encodeURIComponent(doc.id)}/report?format=md`);
      if (!response.ok) throw new Error((await response.json()).error || response.statusText);
      const blob = new Blob([await response.text()], { type: "text/markdown" });
      const a = h("a", { href: URL.createObjectURL(blob), download: `memprobe-report-${doc.id.slice(0, 8)}.md` });
      document.body.append(a);
      a.click();
      a.remove();
      this.ctx.toast("info", TITLE, "Report saved: prompts, paths and ids are removed; check it before you share it.");
    } catch (e) {
      this.ctx.toast("error", TITLE, `Export failed: ${e.message}`);
    }
  }
}
