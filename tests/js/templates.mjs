// The UI-format workflows of the comfyui-workflow-templates package (ComfyUI's real templates).
// The pytest wrapper passes their folder in MEMPROBE_TEMPLATES_DIR.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { setVocabulary } from "../../js/vocab.js";

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

/** The server's vocabulary (GET /memprobe/vocabulary), which the pytest wrapper writes from Python. */
export function useVocabulary() {
  const path = process.env.MEMPROBE_VOCABULARY;
  if (!path) throw new Error("MEMPROBE_VOCABULARY is not set (run through pytest)");
  return setVocabulary(JSON.parse(readFileSync(path, "utf8")));
}

/** A recorded run as the server serves it (GET /memprobe/runs/{id}: with its verdict, suggestions and
 * memory), which the pytest wrapper writes from Python. */
export function served(path) {
  const folder = process.env.MEMPROBE_SERVED;
  if (!folder) throw new Error("MEMPROBE_SERVED is not set (run through pytest)");
  return JSON.parse(readFileSync(join(folder, path), "utf8"));
}

export function fixture(path) {
  return JSON.parse(readFileSync(new URL(`../fixtures/${path}`, import.meta.url), "utf8"));
}
