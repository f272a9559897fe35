// What Memory Probe itself cost this run.

import { fill, h } from "../dom.js";
import { STORE } from "../store.js";
import { Section } from "./section.js";

export class FooterSection extends Section {
  get on() {
    return [STORE.doc];
  }

  mount() {
    this.el = h("div", { class: "mp-footer" });
    return this.el;
  }

  render({ doc }) {
    const o = doc?.overhead;
    fill(
      this.el,
      o?.share_of_process_cpu_pct != null
        ? h("span", {}, `Memory Probe's own CPU time: ${o.share_of_process_cpu_pct}% of ComfyUI's`)
        : "",
    );
  }
}
