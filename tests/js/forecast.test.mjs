// "Before you run" and the compact timeline without a browser: the line a forecast gives, the toast
// a queued prompt that won't fit gives, and the sidebar timeline's data — on forecasts the server made
// (the pytest wrapper writes them from the real CPU ComfyUI's recorded runs).
import assert from "node:assert/strict";
import test from "node:test";

import { forecastLine } from "../../js/sections/forecast.js";
import { columns, forecastByStage } from "../../js/sections/minitimeline.js";
import { announceForecast } from "../../js/toasts.js";
import { forecastTone } from "../../js/vocab.js";
import { served, useVocabulary } from "./templates.mjs";

useVocabulary();

test("a forecast that fits names its peak and its limit", () => {
  const doc = served("forecasts/fits.json");
  const line = forecastLine(doc);
  assert.equal(doc.verdict, "fits");
  assert.equal(line.tone, "ok");
  assert.match(line.text, /^Fits: peak .+ of .+ at VAEDecode \(node 8, vae-decode\)\.$/);
  assert.match(line.learned, /ComfyUI's own estimates/);
});

test("a forecast that won't fit names the stage, and the toast carries the one change", () => {
  const doc = served("forecasts/wont_fit.json");
  const line = forecastLine(doc);
  assert.equal(line.tone, "failed");
  assert.match(line.text, /^Won't fit at vae-decode: peak /);
  assert.equal(doc.suggestions[0].action.type, "swap_vae_decode");
  const toasts = [];
  const toast = (...args) => toasts.push(args);
  const stage = doc.stages.find((s) => s.verdict === "won't fit");
  announceForecast(toast, {
    verdict: doc.verdict,
    stage: stage.stage,
    class_type: "VAEDecode",
    peak_bytes: stage.peak_bytes,
    limit_bytes: stage.limit_bytes,
    change: doc.suggestions[0],
  });
  assert.equal(toasts.length, 1);
  const [severity, summary, detail] = toasts[0];
  assert.equal(severity, "warn");
  assert.equal(summary, "Forecast: won't fit at VAEDecode (vae-decode)");
  assert.match(detail, /needs .+ of .+\. Try: Decode in tiles.+ It was queued anyway\.$/);
  announceForecast(toast, { verdict: "fits" });
  assert.equal(toasts.length, 1, "only a prompt that won't fit is announced");
});

test("a forecast whose model is not on this machine says it cannot tell, and why", () => {
  const doc = served("forecasts/unknown.json");
  const line = forecastLine(doc);
  assert.equal(doc.verdict, "unknown");
  assert.equal(line.tone, "empty");
  assert.match(
    line.text,
    /^Not known: a model file it loads \(not_downloaded\.safetensors\) is not on this machine, so not counted\. What is counted: peak .+ at KSampler \(node 3, sampling\)\.$/,
  );
});

test("the tones come from the server's vocabulary", () => {
  assert.deepEqual(["fits", "unknown", "tight", "won't fit", "???"].map(forecastTone), [
    "ok",
    "empty",
    "near",
    "failed",
    "empty",
  ]);
  assert.equal(forecastLine(null).tone, "empty");
});

test("the compact timeline draws the forecast on the metric the run is judged by", () => {
  const run = served("forecasts/run_with_forecast.json");
  const byStage = forecastByStage(run, run.memory.metric);
  assert.ok(Object.keys(byStage).includes("vae-decode"));
  const same = forecastByStage(
    { forecast: { metric: "m", stages: [{ stage: "s", forecast_bytes: 5, system_bytes: 9 }] } },
    "m",
  );
  const other = forecastByStage(
    { forecast: { metric: "m", stages: [{ stage: "s", forecast_bytes: 5, system_bytes: 9 }] } },
    "x",
  );
  assert.deepEqual([same, other], [{ s: 5 }, { s: 9 }]);
  // one point per pixel column, the column's highest reading
  assert.deepEqual(columns([0, 0.1, 0.2, 10], [1, 7, 3, 2], 10, 10), [
    [0, 7],
    [10, 2],
  ]);
});
