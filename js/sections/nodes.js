// The Nodes table (nodetable.js): the run's top nodes by the judged memory.

import { NodeTable } from "../nodetable.js";
import { STORE } from "../store.js";
import { Section } from "./section.js";

export class NodesSection extends Section {
  constructor(panel) {
    super(panel);
    this.table = new NodeTable({ fallback: () => this.ctx.fallback?.(), onFocus: (id) => panel.focus(id) });
  }

  get on() {
    return [STORE.doc, STORE.samples, STORE.overlays];
  }

  mount() {
    return this.table.mount();
  }

  render({ doc }) {
    this.table.render(doc);
  }
}
