// A part of the Memory sidebar panel. Every section has the same small interface:
//
//   on       the store events (STORE in store.js) and "graph" (the open workflow changed) it
//            redraws on; the panel calls nothing else
//   mount()  its elements, made once each time the tab opens
//   render(view)  draw it; view = {doc, live, store, panel}: the run on screen and whether it is
//            the one executing now
//
// The panel (panel.js) lays the sections out in order and dispatches the store's events to them.

export class Section {
  constructor(panel) {
    this.panel = panel;
  }

  get ctx() {
    return this.panel.ctx;
  }

  /** Store events and "graph" this section redraws on. */
  get on() {
    return [];
  }

  /** Its elements (a Node or an array of them). */
  mount() {
    return [];
  }

  render(_view) {}
}

/** The panel's own event: the open workflow changed (another tab, an edit, an undo). */
export const GRAPH = "graph";
