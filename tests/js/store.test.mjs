// The store's following rules: the newest run is followed, an older one picked stays pinned, a
// run that ends off screen is reported as such (the panel toasts it).
import assert from "node:assert/strict";
import test from "node:test";

import { MemProbeStore } from "../../js/store.js";

function server(runs) {
  const calls = [];
  const fetchJson = async (path) => {
    calls.push(path);
    if (path.startsWith("/memprobe/runs?")) return { runs };
    if (path === "/memprobe/live") return { run: null, status: { tracing: { available: true, enabled: true } } };
    const id = decodeURIComponent(path.split("/")[3].split("?")[0]);
    return { ...runs.find((r) => r.id === id), nodes: [], timeline: { t: [], series: {} } };
  };
  return { fetchJson, calls };
}

test("the newest run is followed; picking an older one pins it; following again shows the newest", async () => {
  const { fetchJson } = server([
    { id: "new", status: "success" },
    { id: "old", status: "success" },
  ]);
  const store = new MemProbeStore(fetchJson);
  await store.refreshRuns();
  await store.followLive();
  assert.equal(store.doc.id, "new");
  assert.equal(store.pinned, false);
  await store.select("old");
  assert.equal(store.pinned, true);
  // a new run starts: the pinned run stays on screen
  store.onRunStart({ id: "live", status: "running", context: {} });
  assert.equal(store.doc.id, "old");
  const ended = [];
  store.addEventListener("run-end", (e) => ended.push(e.detail));
  store.onRunEnd({ id: "live", status: "error", failure: { kind: "other" } });
  assert.equal(ended[0].shown, false, "it ended off screen");
  assert.equal(ended[0].run.status, "error");
  assert.equal(store.doc.id, "old");
  await store.followLive();
  assert.equal(store.follow, true);
});

test("while following, a new run is shown as it starts and stays on screen when it ends", async () => {
  const { fetchJson } = server([{ id: "old", status: "success" }]);
  const store = new MemProbeStore(fetchJson);
  await store.refreshRuns();
  await store.followLive();
  store.onRunStart({ id: "live", status: "running", context: {} });
  assert.equal(store.doc.id, "live");
  assert.ok(store.isLive(store.doc));
  store.onNode({ run_id: "live", seq: 1, node_id: "3", status: "running" });
  store.onSamples({ run_id: "live", t: [0, 0.1], series: { ram_used_bytes: [1, 2] } });
  assert.equal(store.doc.timeline.t.length, 2);
  const ended = [];
  store.addEventListener("run-end", (e) => ended.push(e.detail));
  store.onRunEnd({ id: "live", status: "success", suggestions: [] });
  assert.equal(ended[0].shown, true);
  assert.equal(store.doc.id, "live");
  assert.equal(store.doc.status, "success");
  assert.equal(store.isLive(store.doc), false);
});
