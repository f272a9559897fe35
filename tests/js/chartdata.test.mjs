// Chart data shaping and table rows over recorded runs (tests/fixtures/runs).
import assert from "node:assert/strict";
import test from "node:test";

import {
  appendSamples,
  bandAt,
  chartData,
  dataMax,
  gpuIndices,
  limitLines,
  markers,
  nearestIndex,
  nodeBands,
  peakMarker,
  seriesSpecs,
  yRange,
} from "../../js/chartdata.js";
import { fmtBytes, fmtPair, fmtPct, fmtSeconds, fmtShortTime, fmtValue } from "../../js/format.js";
import { heaviestNodes, memoryColumns, sortRows, tableRows } from "../../js/tabledata.js";
import { fixture, served, useVocabulary } from "./templates.mjs";

useVocabulary();

const txt2img = fixture("runs/txt2img.json");
const probes = fixture("runs/txt2img_probes.json");
const oom = fixture("runs/decode_oom_cpu.json");
const GIB = 1024 ** 3;

test("series: container memory and the model weights offloaded to RAM when the run has them", () => {
  const specs = seriesSpecs({
    t: [0],
    series: { ram_used_bytes: [1], cgroup_used_bytes: [1], model_offloaded_bytes: [0] },
  });
  assert.deepEqual(
    specs.map((s) => s.label),
    ["RAM in use", "container memory", "model weights offloaded to RAM"],
  );
  assert.ok(specs[2].dash);
});

test("series for a CPU run: ComfyUI RAM, machine RAM and commit, each its own colour", () => {
  const specs = seriesSpecs(txt2img.timeline);
  assert.deepEqual(
    specs.map((s) => s.key),
    ["process_rss_bytes", "ram_used_bytes", "commit_bytes"],
  );
  assert.deepEqual(
    specs.map((s) => s.label),
    ["ComfyUI RAM", "RAM in use", "commit"],
  );
  assert.equal(new Set(specs.map((s) => s.color)).size, specs.length);
  const data = chartData(txt2img.timeline, specs);
  assert.equal(data.length, specs.length + 1);
  assert.equal(data[0].length, txt2img.timeline.t.length);
});

test("series for a GPU timeline: per GPU used/reserved/allocated", () => {
  const timeline = {
    t: [0, 1],
    series: {
      gpu0_used_bytes: [1, 2],
      gpu0_reserved_bytes: [1, 1],
      gpu1_used_bytes: [3, 4],
      process_rss_bytes: [5, 6],
    },
  };
  assert.deepEqual(gpuIndices(timeline.series), [0, 1]);
  const specs = seriesSpecs(timeline);
  assert.deepEqual(
    specs.map((s) => s.key),
    ["gpu0_used_bytes", "gpu0_reserved_bytes", "gpu1_used_bytes", "process_rss_bytes"],
  );
  assert.deepEqual(
    specs.map((s) => s.label),
    ["VRAM", "torch reserved", "GPU1 VRAM", "ComfyUI RAM"],
  );
});

test("the limit line: drawn only when the OS enforces it, labelled with its name", () => {
  const specs = seriesSpecs(txt2img.timeline);
  const enforced = {
    ...txt2img,
    memory: { metric: "commit_bytes", limit_bytes: 12 * GIB, limit_name: "commit limit", limit_enforced: true },
  };
  assert.deepEqual(
    limitLines(enforced, specs).map((l) => [l.key, l.label, l.value, l.headline]),
    [["commit_bytes", "commit limit", 12 * GIB, true]],
  );
  const notEnforced = {
    ...txt2img,
    memory: { metric: "commit_bytes", limit_bytes: 12 * GIB, limit_name: "CommitLimit", limit_enforced: false },
  };
  assert.deepEqual(limitLines(notEnforced, specs), []);
  const cgroup = {
    ...txt2img,
    memory: {
      metric: "ram_used_bytes",
      limit_bytes: 4 * GIB,
      limit_name: "container limit (cgroup)",
      limit_enforced: true,
    },
  };
  assert.equal(limitLines(cgroup, specs)[0].label, "container limit (cgroup)");
  // a GPU run is judged by VRAM; the limit the OS enforces on system memory is drawn too
  const gpuRun = {
    timeline: {
      t: [0],
      series: {
        gpu0_used_bytes: [GIB],
        ram_used_bytes: [2 * GIB],
        commit_bytes: [3 * GIB],
        commit_limit_bytes: [5 * GIB],
      },
    },
    start_metrics: { gpu0_total_bytes: 8 * GIB },
    context: { os: "Linux 6.8" },
    memory: {
      metric: "gpu0_used_bytes",
      limit_bytes: 8 * GIB,
      limit_name: "VRAM",
      limit_enforced: true,
      commit_limit_enforced: false,
      system: {
        metric: "ram_used_bytes",
        limit_bytes: 24 * GIB,
        limit_name: "RAM + swap",
        limit_enforced: true,
        peak_bytes: 2 * GIB,
      },
    },
  };
  const gpuSpecs = seriesSpecs(gpuRun.timeline);
  assert.ok(!gpuSpecs.some((s) => s.key === "commit_limit_bytes"), "the commit limit is never a series");
  assert.deepEqual(
    limitLines(gpuRun, gpuSpecs).map((l) => [l.key, l.label, l.value]),
    [
      ["gpu0_used_bytes", "VRAM", 8 * GIB],
      ["ram_used_bytes", "RAM + swap", 24 * GIB],
    ],
  );
  // the server says which limit the OS enforces: the panel draws what it said, and guesses nothing
  assert.deepEqual(limitLines({ ...txt2img, memory: { metric: "ram_used_bytes", limit_bytes: 24 * GIB } }, specs), []);
  // a GPU's VRAM is a ceiling too
  const gpu = {
    timeline: { t: [0], series: { gpu0_used_bytes: [GIB] } },
    start_metrics: { gpu0_total_bytes: 8 * GIB },
    context: {},
  };
  assert.deepEqual(
    limitLines(gpu, seriesSpecs(gpu.timeline)).map((l) => [l.label, l.value]),
    [["VRAM", 8 * GIB]],
  );
});

test("a zero-based axis that takes in the limits within reach", () => {
  const data = [
    [0, 1],
    [GIB, 2 * GIB],
    [null, 3 * GIB],
  ];
  assert.equal(dataMax(data), 3 * GIB);
  assert.deepEqual(yRange(data, []), [0, 3 * GIB * 1.08]);
  assert.deepEqual(yRange(data, [{ value: 4 * GIB }]), [0, 4 * GIB * 1.08], "75 % of the limit: drawn to scale");
  assert.deepEqual(yRange(data, [{ value: 24 * GIB }]), [0, 3 * GIB * 1.08], "12 % of it: named off the scale");
  assert.deepEqual(yRange([[0]], []), [0, 1]);
});

test("live batches append in place and align late metrics", () => {
  const timeline = { t: [0], series: { a: [1] } };
  appendSamples(timeline, { t: [1, 2], series: { a: [2, 3], b: [7, 8] } });
  appendSamples(timeline, { t: [3], series: { b: [9] } });
  assert.deepEqual(timeline, { t: [0, 1, 2, 3], series: { a: [1, 2, 3, null], b: [null, 7, 8, 9] } });
});

test("node bands, the running node's growing band, hover lookup and markers", () => {
  const bands = nodeBands(txt2img.nodes);
  assert.equal(bands.length, txt2img.nodes.filter((n) => n.start_s != null && n.status !== "cached").length);
  const decode = bands.find((b) => b.stage === "vae-decode");
  assert.equal(bandAt(bands, (decode.start + decode.end) / 2).nodeId, "8");
  const running = [{ node_id: "3", stage: "sampling", status: "running", start_s: 1.0, end_s: null }];
  assert.equal(nodeBands(running, 1.5)[0].end, 1.5);
  assert.equal(nodeBands(running, 4.25)[0].end, 4.25);
  assert.equal(nodeBands(running, 4.25)[0].running, true);
  assert.deepEqual(
    markers(probes)
      .filter((m) => m.kind === "probe")
      .map((m) => m.label),
    ["after load", "after sampling", "after decode"],
  );
  assert.equal(markers(oom).at(-1).kind, "failure");
  const models = {
    events: [
      { t_s: 1, kind: "model-loaded" },
      { t_s: 2, kind: "model-partially-loaded" },
      { t_s: 3, kind: "oom-fallback" },
    ],
  };
  assert.deepEqual(
    markers(models).map((m) => m.kind),
    ["model-partially-loaded", "oom-fallback"],
    "of the model log lines only partial loads",
  );
  assert.equal(nearestIndex([0, 1, 2, 3], 1.4), 1);
  assert.equal(nearestIndex([], 1), -1);
});

test("the peak marker sits on the run's highest reading, during the node that made it", () => {
  const peak = peakMarker(served("runs/txt2img.json"));
  const values = txt2img.timeline.series.ram_used_bytes;
  assert.equal(peak.key, "ram_used_bytes");
  assert.equal(
    peak.value,
    Math.max(...values.filter((v) => v != null), ...txt2img.nodes.map((n) => n.peaks.ram_used_bytes ?? 0)),
  );
  const decode = txt2img.nodes.find((n) => n.node_id === "8");
  assert.ok(peak.t >= decode.start_s && peak.t <= decode.end_s);
  assert.equal(peakMarker({ nodes: [], timeline: { t: [], series: {} } }), null);
});

test("table rows: what each node added while it ran (peak − before), peaks, cached nodes, sorting", () => {
  const rows = tableRows(txt2img);
  assert.equal(rows.length, txt2img.nodes.length);
  assert.deepEqual(
    memoryColumns(txt2img).map((c) => c.key),
    ["process_rss_bytes", "ram_used_bytes", "commit_bytes"],
  );
  assert.deepEqual(
    memoryColumns(txt2img, "ram_used_bytes").map((c) => c.key),
    ["ram_used_bytes", "process_rss_bytes", "commit_bytes"],
  );
  const decode = rows.find((r) => r.nodeId === "8");
  const node = txt2img.nodes.find((n) => n.node_id === "8");
  assert.equal(decode["commit_bytes:added"], node.peaks.commit_bytes - node.before.commit_bytes);
  assert.ok(
    decode["commit_bytes:added"] > 50 * (node.after.commit_bytes - node.before.commit_bytes),
    "the decode freed most of what it took before it ended",
  );
  assert.equal(decode["process_rss_bytes:peak"], node.peaks.process_rss_bytes);
  assert.equal(sortRows(rows, "process_rss_bytes:peak", "desc")[0].nodeId, "8");
  const tiled = tableRows(fixture("runs/txt2img_tiled.json"));
  assert.ok(
    tiled.some(
      (r) => r.status === "cached" && r["process_rss_bytes:peak"] === null && r["process_rss_bytes:added"] === null,
    ),
  );
  assert.equal(sortRows(tiled, "process_rss_bytes:peak").at(-1)["process_rss_bytes:peak"], null, "nulls last");
});

test("table rows say which peaks are exact (from a peak counter) and which sampled", () => {
  const exact = tableRows(fixture("runs/txt2img_exact_peaks.json"));
  const loader = exact.find((r) => r.nodeId === "4");
  assert.equal(loader["process_rss_bytes:exact"], true);
  assert.equal(loader["commit_bytes:exact"], false, "Linux keeps no commit peak");
  assert.ok(
    tableRows(txt2img).every((r) => r["process_rss_bytes:exact"] === false),
    "recorded before the counters",
  );
});

test("a node row carries its model line", () => {
  const models = fixture("runs/txt2img_models.json");
  const sampler = tableRows(models).find((r) => r.nodeId === "3");
  assert.equal(sampler.models.changed, true);
  assert.match(sampler.models.text, /^loaded BaseModel/);
  assert.equal(tableRows(txt2img)[0].models.changed, false);
});

test("badges go to the heaviest nodes that raised memory themselves, and to a failed node, in the verdict's tone", () => {
  const heavy = heaviestNodes(served("runs/txt2img.json"), { count: 3, threshold: 256 * 1024 ** 2 });
  assert.ok(heavy.length >= 1 && heavy.length <= 3);
  assert.equal(heavy[0].id, "8");
  assert.ok(heavy.every((n) => n.growth >= 256 * 1024 ** 2 && n.tone === "neutral"));
  const failed = heaviestNodes(served("runs/decode_oom_cpu.json"), { threshold: 100 * GIB });
  assert.ok(failed.some((n) => n.tone === "failed" && n.id === "8"));
  const near = heaviestNodes(served("runs/txt2img_near_cgroup_limit.json"), { threshold: 0 });
  assert.equal(near.find((n) => n.id === "8").tone, "near");
});

test("formatting", () => {
  assert.equal(fmtBytes(1.5 * GIB), "1.5 GiB");
  assert.equal(fmtBytes(-3 * 1024 ** 2, { signed: true }), "−3 MiB");
  assert.equal(fmtBytes(null), "—");
  assert.equal(fmtPair(GIB, 4 * GIB), "1.0 GiB / 4.0 GiB (25%)");
  assert.equal(fmtPct(GIB, 4 * GIB), "25 %");
  assert.equal(fmtPct(1, 1000), "<1 %");
  assert.equal(fmtPct(1, null), "—");
  assert.equal(fmtSeconds(0.25), "250 ms");
  assert.equal(fmtSeconds(125), "2 min 5 s");
  assert.match(fmtShortTime(Date.now() / 1000), /^\d{2}:\d{2}:\d{2}/);
  for (const [value, text] of [
    [null, "—"],
    [undefined, "—"],
    ["", "—"],
    [[], "—"],
    [["a.safetensors", "b.pt"], "a.safetensors, b.pt"],
    [{ tile_size: 512, overlap: null }, "tile_size 512"],
    [0.12345, "0.123"],
    [7, "7"],
    [true, "true"],
  ]) {
    assert.equal(fmtValue(value), text);
  }
});
