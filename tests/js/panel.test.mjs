// The panel's judgements, without a browser: the headline over every recorded run, workflow
// identity over real graphs, and the palette's contrast.
import assert from "node:assert/strict";
import test from "node:test";

import {
  BADGE_COLORS,
  contrast,
  PALETTES,
  SEVERITY_COLORS,
  STAGE_PALETTE,
  STAGE_TEXT,
  themeFor,
  toHex,
} from "../../js/colors.js";
import { serializedGraph } from "../../js/graphlocate.js";
import { headline } from "../../js/headline.js";
import {
  canActOn,
  graphMatchesPrompt,
  identityState,
  NO_ID,
  nodeMatchesPrompt,
  openWorkflow,
  realId,
  runTarget,
} from "../../js/identity.js";
import { memoryOf, runPeak } from "../../js/memory.js";
import { metricLabel, nodeToneCount, severityCount, stageCount, vocabulary } from "../../js/vocab.js";
import { fixture, served, useVocabulary } from "./templates.mjs";

useVocabulary();

const GIB = 1024 ** 3;

// ------------------------------------------------------------------------------- the headline
// The judgement is the server's (tests/unit/test_verdict.py); the panel renders it.
test("a finished run's headline is its verdict, as the server sent it", () => {
  for (const name of ["txt2img", "decode_oom_cpu", "killed_by_cgroup_limit", "error_runtime", "killed_mid_sampling"]) {
    const doc = served(`runs/${name}.json`);
    const head = headline(doc);
    assert.deepEqual([head.tone, head.title, head.detail], [doc.verdict.tone, doc.verdict.title, doc.verdict.detail]);
    assert.equal(head.suggestion?.id, doc.suggestions[0]?.id);
  }
  const killed = headline(served("runs/killed_by_cgroup_limit.json"));
  assert.equal(killed.title, "Container memory limit reached at VAE Decode (vae-decode)");
  assert.equal(killed.tone, "failed");
  assert.equal(headline(null).tone, "empty");
  assert.equal(headline({ id: "r", status: "success" }).title, "Judging this run…", "a run end the judge has not sent");
});

test("while a run executes the headline names the running node and the memory now, in the server's words", () => {
  const live = {
    id: "x",
    status: "running",
    nodes: [
      {
        node_id: "3",
        class_type: "KSampler",
        title: "KSampler",
        stage: "sampling",
        status: "running",
        start_s: 0,
        end_s: null,
        peaks: {},
      },
    ],
    timeline: { t: [0, 1], series: { ram_used_bytes: [2 * GIB, 4 * GIB] } },
  };
  const status = { metric: "ram_used_bytes", label: "RAM in use", limit_bytes: 16 * GIB, limit_name: "RAM" };
  const head = headline(live, { live: true, fallback: { ...status, limit_enforced: true } });
  assert.equal(head.title, "Running KSampler (sampling)");
  assert.equal(head.detail, "RAM in use now 4.0 GiB (25 % of RAM); peak so far 4.0 GiB");
  const loose = headline(live, { live: true, fallback: { ...status, limit_enforced: false } });
  assert.equal(loose.detail, "RAM in use now 4.0 GiB; peak so far 4.0 GiB", "no share of a limit not enforced");
});

test("the memory and its limit are the server's, never guessed", () => {
  const doc = served("runs/txt2img.json");
  const memory = memoryOf(doc);
  assert.deepEqual(
    [memory.metric, memory.label, memory.limitName, memory.enforced],
    ["ram_used_bytes", "RAM in use", "RAM", true],
  );
  assert.equal(memoryOf({ context: {} }).metric, null);
  assert.equal(metricLabel("gpu1_reserved_bytes"), "GPU1 torch reserved");
  assert.equal(runPeak({ nodes: [], timeline: { t: [], series: {} } }, "ram_used_bytes"), null);
});

// ------------------------------------------------------------------------------- identity
const PROMPT = fixture("comfyui-0.3.64/api-workflows/txt2img.json");

/** A live-like graph from an API prompt, the way loadApiJson wires it (ids kept). */
function graphFromPrompt(prompt, id = "w-1") {
  const nodes = [];
  const links = [];
  let linkId = 1;
  const inputsOf = {};
  for (const [nodeId, n] of Object.entries(prompt)) {
    inputsOf[nodeId] = Object.entries(n.inputs)
      .filter(([, v]) => Array.isArray(v))
      .map(([name]) => ({ name, link: null }));
    nodes.push({ id: Number(nodeId), type: n.class_type, inputs: inputsOf[nodeId], outputs: [] });
  }
  for (const [nodeId, n] of Object.entries(prompt)) {
    for (const [name, v] of Object.entries(n.inputs)) {
      if (!Array.isArray(v)) continue;
      const slot = inputsOf[nodeId].findIndex((i) => i.name === name);
      inputsOf[nodeId][slot].link = linkId;
      links.push([linkId++, Number(v[0]), v[1], Number(nodeId), slot, "*"]);
    }
  }
  return { id, nodes, links };
}

test("the same node with the same links matches; another class or another source does not", () => {
  const root = serializedGraph(graphFromPrompt(PROMPT));
  assert.deepEqual(nodeMatchesPrompt(root, PROMPT, "8"), { ok: true });
  assert.equal(graphMatchesPrompt(root, PROMPT).ok, true);
  const swapped = structuredClone(PROMPT);
  swapped["8"].class_type = "VAEDecodeTiled";
  assert.match(nodeMatchesPrompt(root, swapped, "8").reason, /is a VAEDecode; in this run it was a VAEDecodeTiled/);
  const rewired = graphFromPrompt(PROMPT);
  rewired.links.find((l) => l[3] === 8 && l[4] === 1)[1] = 3; // the decode's vae now from the sampler
  assert.match(nodeMatchesPrompt(serializedGraph(rewired), PROMPT, "8").reason, /vae input comes from another node/);
  const unplugged = graphFromPrompt(PROMPT);
  unplugged.nodes.find((n) => n.id === 8).inputs[0].link = null;
  assert.match(
    nodeMatchesPrompt(serializedGraph(unplugged), PROMPT, "8").reason,
    /samples input is no longer connected/,
  );
  assert.match(nodeMatchesPrompt(root, PROMPT, "99").reason, /not part of this run's graph/);
  const missing = { ...PROMPT, 42: { class_type: "SaveImage", inputs: {} } };
  assert.match(graphMatchesPrompt(root, missing).reason, /has no node 42/);
});

test("workflow identity: a workflow id decides; without one the graph must match", () => {
  const app = (id) => ({
    rootGraph: { ...serializedGraph(graphFromPrompt(PROMPT)), id },
    extensionManager: { workflow: { activeWorkflow: { filename: "other.json" } } },
  });
  const doc = { prompt: PROMPT, workflow: { id: "w-1", graph: "x" } };
  assert.equal(identityState(doc, openWorkflow(app("w-1"))), "same");
  assert.equal(identityState(doc, openWorkflow(app("w-2"))), "other");
  assert.equal(identityState({ prompt: PROMPT, workflow: { id: null } }, openWorkflow(app("w-2"))), "unknown");
  assert.equal(identityState(doc, openWorkflow(app(NO_ID))), "unknown", "the nil UUID is no identity");
  assert.equal(realId(NO_ID), null);
  // the same node 8, the same links, but another workflow: never by id alone
  const other = runTarget(doc, app("w-2"));
  assert.deepEqual(canActOn(other, doc, "8"), {
    ok: false,
    otherWorkflow: true,
    reason: "This run came from another workflow.",
  });
  assert.equal(openWorkflow(app("w-2")).name, "other");
  assert.deepEqual(canActOn(runTarget(doc, app("w-1")), doc, "8"), { ok: true });
  // an API client's run: the graph decides
  const apiRun = { prompt: PROMPT, workflow: { id: null, graph: "x" } };
  assert.deepEqual(canActOn(runTarget(apiRun, app("w-2")), apiRun, "8"), { ok: true });
  const changed = structuredClone(PROMPT);
  changed["3"].class_type = "KSamplerAdvanced";
  assert.equal(
    canActOn(runTarget({ prompt: changed, workflow: null }, app("w-2")), { prompt: changed }, "8").ok,
    false,
  );
  // a workflow rebuilt from the run's graph is remembered as the run's
  const rebuiltApp = app(NO_ID);
  const remembered = new WeakMap([[rebuiltApp.extensionManager.workflow.activeWorkflow, "w-1"]]);
  assert.equal(runTarget(doc, rebuiltApp, remembered).state, "same");
});

// ------------------------------------------------------------------------------- colours
/** CIE76 distance of two colours (over 20: clearly different). */
function deltaE(a, b) {
  const lab = (hex) => {
    const [r, g, bl] = [1, 3, 5]
      .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    const xyz = [
      (r * 0.4124 + g * 0.3576 + bl * 0.1805) / 0.95047,
      r * 0.2126 + g * 0.7152 + bl * 0.0722,
      (r * 0.0193 + g * 0.1192 + bl * 0.9505) / 1.08883,
    ];
    const f = xyz.map((v) => (v > 0.008856 ? Math.cbrt(v) : 7.787 * v + 16 / 116));
    return [116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])];
  };
  const [x, y] = [lab(a), lab(b)];
  return Math.hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]);
}

test("every series and line stands out from the background (3:1) and from the others", () => {
  for (const [theme, p] of Object.entries(PALETTES)) {
    const colors = Object.entries(p.series);
    for (const bg of p.background) {
      for (const [name, color] of colors)
        assert.ok(contrast(color, bg) >= 3, `${theme} ${name} on ${bg}: ${contrast(color, bg).toFixed(2)}`);
      assert.ok(
        contrast(p.text, bg) >= 4.5 && contrast(p.muted, bg) >= 4.5 && contrast(p.axis, bg) >= 4.5,
        `${theme} text on ${bg}`,
      );
    }
    for (let i = 0; i < colors.length; i++) {
      for (let j = i + 1; j < colors.length; j++)
        assert.ok(deltaE(colors[i][1], colors[j][1]) >= 20, `${theme}: ${colors[i][0]} and ${colors[j][0]} look alike`);
    }
  }
});

test("text on chips and badges is readable (4.5:1)", () => {
  for (const [i, s] of [...SEVERITY_COLORS, ...BADGE_COLORS].entries()) assert.ok(contrast(s.fg, s.bg) >= 4.5, i);
  for (const [i, color] of STAGE_PALETTE.entries()) assert.ok(contrast(STAGE_TEXT, color) >= 4.5, i);
});

test("every stage, severity and node tone the server names has a colour of its own", () => {
  assert.ok(STAGE_PALETTE.length >= stageCount() && stageCount() >= 12);
  assert.equal(new Set(STAGE_PALETTE).size, STAGE_PALETTE.length);
  assert.ok(SEVERITY_COLORS.length >= severityCount() && BADGE_COLORS.length >= nodeToneCount());
  const series = vocabulary()
    .gpu_metrics.concat(vocabulary().system_metrics)
    .filter((m) => m.color);
  for (const theme of Object.values(PALETTES))
    for (const m of series) assert.ok(theme.series[m.color], `no ${m.color} colour for ${m.key}`);
});

test("the theme follows the background", () => {
  assert.equal(toHex("rgb(32, 32, 32)"), "#202020");
  assert.equal(toHex("#fff"), "#ffffff");
  assert.equal(toHex("rgba(0, 0, 0, 0)"), null);
  assert.equal(themeFor("rgb(32, 32, 32)"), "dark");
  assert.equal(themeFor("#f4f4f5"), "light");
});
