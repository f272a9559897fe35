// The model line of a node row and the offloaded series, over runs recorded in a real ComfyUI
// (tests/fixtures/runs) and the real ModelPatcher partial load (tests/fixtures/residency).
import assert from "node:assert/strict";
import test from "node:test";

import { markers, seriesSpecs } from "../../js/chartdata.js";
import { formatChange, formatModel, modelLine, offloadedSeries, where, withOffloadedSeries } from "../../js/models.js";
import { tableRows } from "../../js/tabledata.js";
import { fixture, useVocabulary } from "./templates.mjs";

useVocabulary();

const txt2img = fixture("runs/txt2img_models.json");
const partialLoad = fixture("residency/partial_load_cpu.json");

/** The recorded partial load of the real ModelPatcher, as it reads on a GPU. */
function onGpu(models) {
  return models.map((m) => ({ ...m, device: "cuda:0" }));
}
const [clipStep, partialStep, unloadStep] = ["start", "partial load", "partial unload"].map((name) =>
  partialLoad.steps.find((s) => s.step === name),
);

test("devices read as the user's words: GPU, RAM", () => {
  assert.deepEqual(["cuda:0", "cuda:1", "cpu", "mps", "privateuseone:0", null].map(where), [
    "on GPU",
    "on GPU 1",
    "in RAM",
    "on GPU",
    "on privateuseone:0",
    "",
  ]);
});

test("a partially loaded model reads 'X on GPU, Y offloaded to RAM'", () => {
  const unet = onGpu(partialStep.models).find((m) => m.class === "BaseModel");
  assert.equal(formatModel(unet), "BaseModel: 68 MiB on GPU, 101 MiB offloaded to RAM");
  const [change] = partialStep.changes;
  assert.equal(
    formatChange({ ...change, device: "cuda:0" }),
    "loaded BaseModel partially: 68 MiB on GPU, 101 MiB offloaded to RAM",
  );
  const [offload] = unloadStep.changes;
  assert.equal(formatChange(offload), "moved 26 MiB of BaseModel to RAM");
});

test("node rows of a recorded txt2img show what each loader node loaded, nothing for the others", () => {
  const rows = Object.fromEntries(tableRows(txt2img).map((r) => [r.id, r.models]));
  assert.equal(rows["4"].text, "loaded SD1ClipModel (236 MiB in RAM)");
  assert.equal(rows["3"].text, "loaded BaseModel (169 MiB in RAM)");
  assert.equal(rows["8"].text, "loaded AutoencoderKL (319 MiB in RAM)");
  assert.deepEqual([rows["5"].changed, rows["5"].text], [false, ""]);
  assert.ok(rows["9"].title.startsWith("Models held: ") && rows["9"].title.includes("tiny_sd15.safetensors, float16"));
  assert.equal(rows["3"].partial, false);
});

test("the offloaded series steps at node boundaries and is left out when nothing was offloaded", () => {
  const nodes = [
    { start_s: 1, end_s: 2, status: "ran", models: onGpu(clipStep.models) },
    { start_s: 2, end_s: 5, status: "ran", models_before: onGpu(clipStep.models), models: onGpu(partialStep.models) },
    { start_s: 5, end_s: 6, status: "ran", models: onGpu(unloadStep.models), models_before: onGpu(partialStep.models) },
  ];
  const offloaded = partialStep.models.find((m) => m.class === "BaseModel").offloaded_bytes;
  const later = unloadStep.models.find((m) => m.class === "BaseModel").offloaded_bytes;
  // known from each node's start and end: the sampler's load shows from its end on
  assert.deepEqual(offloadedSeries(nodes, [0, 1.5, 3, 5.5, 7]), [null, 0, 0, offloaded, later]);
  assert.deepEqual(offloadedSeries(nodes, [4.9, 5]), [0, offloaded]);
  assert.ok(later > offloaded);
  const timeline = withOffloadedSeries({ t: [0, 3, 5.5], series: { process_rss_bytes: [1, 2, 3] } }, nodes);
  assert.deepEqual(
    seriesSpecs(timeline).map((s) => s.key),
    ["process_rss_bytes", "model_offloaded_bytes"],
  );
  // a recorded CPU run offloads nothing: no series
  assert.equal(withOffloadedSeries(txt2img.timeline, txt2img.nodes), txt2img.timeline);
  assert.equal(offloadedSeries([{ start_s: 0, end_s: 1, status: "ran", models: null }], [0, 1]), null);
});

test("model log lines are markers only for partial loads and unloads", () => {
  const doc = {
    events: [
      { t_s: 1, kind: "model-loaded", message: "loaded completely 9.5e+25 168.9 True" },
      { t_s: 2, kind: "model-partially-loaded", message: "loaded partially 67.58 67.57 0" },
      { t_s: 3, kind: "tiled-vae-decode", message: "retrying with tiled VAE decoding" },
    ],
  };
  assert.deepEqual(
    markers(doc).map((m) => m.kind),
    ["model-partially-loaded", "tiled-vae-decode"],
  );
  assert.equal(markers(txt2img).filter((m) => m.kind.startsWith("model-")).length, 0);
});

test("a running node's line shows nothing changed yet", () => {
  assert.deepEqual(modelLine({ status: "running", models: onGpu(clipStep.models), model_changes: [] }).changed, false);
});
