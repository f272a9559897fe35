// Swap planning and execution-id resolution over every real template with a VAE Decode.
import assert from "node:assert/strict";
import test from "node:test";

import {
  allNodes,
  resolveExecutionId,
  SUBGRAPH_INPUT_ID,
  SUBGRAPH_OUTPUT_ID,
  serializedGraph,
} from "../../js/graphlocate.js";
import { planSwap, signature, tiledSettings } from "../../js/swap.js";
import { templates } from "./templates.mjs";

const all = templates();
const withDecode = all
  .map((t) => ({ ...t, graph: serializedGraph(t.workflow) }))
  .map((t) => ({ ...t, decodes: allNodes(t.graph).filter((n) => n.node.type === "VAEDecode") }))
  .filter((t) => t.decodes.length);

test("the template package has workflows with VAE Decode, some inside subgraphs", () => {
  assert.ok(all.length >= 150, `${all.length} templates`);
  assert.ok(withDecode.length >= 80, `${withDecode.length} with a VAE Decode`);
  assert.ok(
    withDecode.some((t) => t.decodes.some((d) => d.id.includes(":"))),
    "some decode sits in a subgraph",
  );
});

for (const t of withDecode) {
  test(`plan for every VAE Decode of ${t.name}`, () => {
    for (const { id, node, graph } of t.decodes) {
      const plan = planSwap(t.graph, id);
      const samples = node.inputs.find((i) => i.name === "samples");
      const vae = node.inputs.find((i) => i.name === "vae");
      if (samples?.link == null || vae?.link == null) {
        assert.equal(plan.ok, false, `${id}: unconnected inputs must be refused`);
        assert.match(plan.reason, /not connected/);
        continue;
      }
      assert.ok(plan.ok, `${t.name} ${id}: ${plan.reason}`);
      const samplesLink = graph.getLink(samples.link);
      const vaeLink = graph.getLink(vae.link);
      assert.deepEqual(plan.inputs.samples, { originId: samplesLink.origin_id, originSlot: samplesLink.origin_slot });
      assert.deepEqual(plan.inputs.vae, { originId: vaeLink.origin_id, originSlot: vaeLink.origin_slot });
      const image = node.outputs.find((o) => o.name === "IMAGE");
      assert.equal(plan.outputs.length, (image.links || []).filter((l) => graph.getLink(l)).length);
      for (const out of plan.outputs) {
        const target =
          Number(out.targetId) === SUBGRAPH_OUTPUT_ID ? "subgraph output" : graph.getNodeById(out.targetId);
        assert.ok(target, `${t.name} ${id}: IMAGE target ${out.targetId} exists`);
      }
      assert.deepEqual(plan.pos, node.pos);
      assert.equal(plan.signature, signature(plan));
    }
  });
}

test("subgraph decodes resolve through their subgraph node and may take the vae from the subgraph input", () => {
  const wan = withDecode.find((t) => t.name === "video_wan2_2_14B_animate.json");
  const inner = wan.decodes.filter((d) => d.id.includes(":"));
  assert.ok(inner.length >= 1);
  const plans = inner.map((d) => planSwap(wan.graph, d.id));
  assert.ok(plans.some((p) => p.ok && p.inputs.vae.originId === SUBGRAPH_INPUT_ID));
  assert.ok(plans.some((p) => p.ok && p.outputs.some((o) => o.targetId === SUBGRAPH_OUTPUT_ID)));
  for (const d of inner) assert.equal(resolveExecutionId(wan.graph, d.id).node.id, d.node.id);
});

test("a node that is gone, or no longer a VAE Decode, is refused with the reason", () => {
  const t = withDecode.find((x) => x.decodes.some((d) => !d.id.includes(":")));
  const decode = t.decodes.find((d) => !d.id.includes(":"));
  assert.match(planSwap(t.graph, "987654").reason, /no longer in this workflow/);
  assert.match(planSwap(t.graph, "987654:1").reason, /no longer in this workflow/);
  const other = allNodes(t.graph).find((n) => n.node.type !== "VAEDecode" && !n.id.includes(":"));
  assert.match(planSwap(t.graph, other.id).reason, new RegExp(`now a ${other.node.type}`));
  assert.equal(planSwap(t.graph, decode.id).ok, true);
});

test("tiled settings come from the action, with the node's own overlap rule", () => {
  assert.deepEqual(tiledSettings({}), { tile_size: 512, overlap: 64, temporal_size: 64, temporal_overlap: 8 });
  assert.deepEqual(tiledSettings({ tile_size: 128, overlap: 64 }), {
    tile_size: 128,
    overlap: 32,
    temporal_size: 64,
    temporal_overlap: 8,
  });
});
