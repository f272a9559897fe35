// Chart data shaping and table rows over recorded runs (tests/fixtures/runs).
import assert from "node:assert/strict";
import test from "node:test";

import { appendSamples, bandAt, chartData, gpuIndices, limitsOf, markers, nearestIndex, nodeBands, seriesSpecs } from "../../js/chartdata.js";
import { fmtBytes, fmtPair, fmtSeconds } from "../../js/format.js";
import { heaviestNodes, memoryColumns, sortRows, tableRows } from "../../js/tabledata.js";
import { fixture } from "./templates.mjs";

const txt2img = fixture("runs/txt2img.json");
const probes = fixture("runs/txt2img_probes.json");
const oom = fixture("runs/decode_oom_cpu.json");

test("series for a CPU run: ComfyUI RAM, machine RAM, commit and its limit", () => {
  const specs = seriesSpecs(txt2img.timeline, limitsOf(txt2img));
  assert.deepEqual(specs.map((s) => s.key), ["process_rss_bytes", "ram_used_bytes", "commit_bytes", "commit_limit_bytes"]);
  const data = chartData(txt2img.timeline, specs);
  assert.equal(data.length, specs.length + 1);
  assert.equal(data[0].length, txt2img.timeline.t.length);
  assert.ok(specs.find((s) => s.key === "commit_limit_bytes").dash, "the limit is dashed");
});

test("series for a GPU timeline: per GPU used/reserved/allocated and a constant VRAM total line", () => {
  const timeline = { t: [0, 1], series: { gpu0_used_bytes: [1, 2], gpu0_reserved_bytes: [1, 1], gpu1_used_bytes: [3, 4], process_rss_bytes: [5, 6] } };
  assert.deepEqual(gpuIndices(timeline.series), [0, 1]);
  const specs = seriesSpecs(timeline, { gpu0_total_bytes: 8 });
  assert.deepEqual(specs.map((s) => s.key), ["gpu0_used_bytes", "gpu0_reserved_bytes", "gpu0_total_bytes", "gpu1_used_bytes", "process_rss_bytes"]);
  assert.deepEqual(chartData(timeline, specs)[3], [8, 8]);
});

test("live batches append in place and align late metrics", () => {
  const timeline = { t: [0], series: { a: [1] } };
  appendSamples(timeline, { t: [1, 2], series: { a: [2, 3], b: [7, 8] } });
  appendSamples(timeline, { t: [3], series: { b: [9] } });
  assert.deepEqual(timeline, { t: [0, 1, 2, 3], series: { a: [1, 2, 3, null], b: [null, 7, 8, 9] } });
});

test("node bands, hover lookup and markers of a recorded run", () => {
  const bands = nodeBands(txt2img.nodes);
  assert.equal(bands.length, txt2img.nodes.filter((n) => n.start_s != null).length);
  const decode = bands.find((b) => b.stage === "vae-decode");
  assert.equal(bandAt(bands, (decode.start + decode.end) / 2).nodeId, "8");
  assert.deepEqual(markers(probes).filter((m) => m.kind === "probe").map((m) => m.label), ["after load", "after sampling", "after decode"]);
  assert.equal(markers(oom).at(-1).kind, "failure");
  assert.equal(nearestIndex([0, 1, 2, 3], 1.4), 1);
  assert.equal(nearestIndex([], 1), -1);
});

test("table rows: deltas, peaks, cached nodes without memory, sorting", () => {
  const rows = tableRows(txt2img);
  assert.equal(rows.length, txt2img.nodes.length);
  assert.deepEqual(memoryColumns(txt2img).map((c) => c.key), ["process_rss_bytes", "commit_bytes"]);
  const decode = rows.find((r) => r.nodeId === "8");
  const node = txt2img.nodes.find((n) => n.node_id === "8");
  assert.equal(decode["process_rss_bytes:delta"], node.after.process_rss_bytes - node.before.process_rss_bytes);
  assert.equal(decode["process_rss_bytes:peak"], node.peaks.process_rss_bytes);
  const sorted = sortRows(rows, "process_rss_bytes:peak", "desc");
  assert.equal(sorted[0].nodeId, "8");
  const tiled = tableRows(fixture("runs/txt2img_tiled.json"));
  assert.ok(tiled.some((r) => r.status === "cached" && r["process_rss_bytes:peak"] === null));
  assert.equal(sortRows(tiled, "process_rss_bytes:peak").at(-1)["process_rss_bytes:peak"], null, "nulls last");
});

test("table rows say which peaks are exact (from a peak counter) and which sampled", () => {
  const exact = tableRows(fixture("runs/txt2img_exact_peaks.json"));
  const loader = exact.find((r) => r.nodeId === "4");
  assert.equal(loader["process_rss_bytes:exact"], true);
  assert.equal(loader["commit_bytes:exact"], false, "Linux keeps no commit peak");
  assert.ok(tableRows(txt2img).every((r) => r["process_rss_bytes:exact"] === false), "recorded before the counters");
});

test("badges go to the heaviest nodes that raised memory themselves", () => {
  const heavy = heaviestNodes(txt2img, "ram_used_bytes", { count: 3, threshold: 256 * 1024 ** 2 });
  assert.ok(heavy.length >= 1 && heavy.length <= 3);
  assert.equal(heavy[0].id, "8");
  assert.ok(heavy.every((n) => n.growth >= 256 * 1024 ** 2));
});

test("formatting", () => {
  assert.equal(fmtBytes(1.5 * 1024 ** 3), "1.5 GiB");
  assert.equal(fmtBytes(-3 * 1024 ** 2, { signed: true }), "−3 MiB");
  assert.equal(fmtBytes(null), "—");
  assert.equal(fmtPair(1024 ** 3, 4 * 1024 ** 3), "1.0 GiB / 4.0 GiB (25%)");
  assert.equal(fmtSeconds(0.25), "250 ms");
  assert.equal(fmtSeconds(125), "2 min 5 s");
});

test("the chart draws the limit the OS enforces, never an unenforced commit limit", () => {
  const timeline = { t: [0, 1], series: { ram_used_bytes: [1, 2], commit_bytes: [3, 4], commit_limit_bytes: [2, 2] } };
  // Linux in overcommit mode 0: RAM is the limit, the commit limit is only a number
  const linux = { system: { limit_name: "RAM", limit_enforced: true, metric: "ram_used_bytes", limit_bytes: 24 }, commit_limit_enforced: false };
  const specs = seriesSpecs(timeline, limitsOf({}, linux));
  assert.deepEqual(specs.map((s) => s.key), ["ram_used_bytes", "commit_bytes", "system_limit"]);
  assert.equal(specs[1].label, "commit (no limit enforced)");
  assert.equal(specs[2].label, "RAM (the limit this OS enforces)");
  assert.deepEqual(chartData(timeline, specs)[3], [24, 24]);
  // Windows: the commit limit is the limit, drawn dashed as before
  const windows = { system: { limit_name: "commit limit", limit_enforced: true, metric: "commit_bytes", limit_bytes: 40 }, commit_limit_enforced: true };
  assert.deepEqual(seriesSpecs(timeline, limitsOf({}, windows)).map((s) => s.key), ["ram_used_bytes", "commit_bytes", "commit_limit_bytes"]);
});
