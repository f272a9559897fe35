// The UI-format workflows of the comfyui-workflow-templates package (ComfyUI's real templates).
// The pytest wrapper passes their folder in MEMPROBE_TEMPLATES_DIR.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const TEMPLATES_DIR = process.env.MEMPROBE_TEMPLATES_DIR;

export function templates() {
  if (!TEMPLATES_DIR) throw new Error("MEMPROBE_TEMPLATES_DIR is not set (run through pytest)");
  return readdirSync(TEMPLATES_DIR)
    .filter((f) => f.endsWith(".json"))
    .map((f) => ({ name: f, text: readFileSync(join(TEMPLATES_DIR, f), "utf8") }))
    .filter((t) => t.text.includes('"nodes"'))
    .map((t) => ({ name: t.name, workflow: JSON.parse(t.text) }))
    .filter((t) => Array.isArray(t.workflow.nodes));
}

export function fixture(path) {
  return JSON.parse(readFileSync(new URL(`../fixtures/${path}`, import.meta.url), "utf8"));
}
