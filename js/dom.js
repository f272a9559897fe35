// A small DOM builder shared by the panel's views: h("div", {class, onclick, ...}, ...children).

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "style") el.style.cssText = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(el.dataset, v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** A button in ComfyUI's look (PrimeVue's button classes, which the frontend styles). */
export function button(label, { primary = false, small = true, title, onclick, disabled = false, icon, ...rest } = {}) {
  const cls = [
    "mp-btn",
    "p-button",
    "p-component",
    small ? "p-button-sm" : "",
    primary ? "mp-primary" : "p-button-secondary mp-secondary",
  ]
    .filter(Boolean)
    .join(" ");
  return h(
    "button",
    { type: "button", class: cls, title, onclick, disabled, ...rest },
    icon ? h("i", { class: `pi ${icon}`, "aria-hidden": "true" }) : null,
    h("span", { class: "p-button-label" }, label),
  );
}

/** Calls `fn` at most once per `ms`, with the latest arguments. */
export function throttle(fn, ms) {
  let timer = null;
  let last = null;
  return (...args) => {
    last = args;
    if (timer) return;
    timer = setTimeout(() => {
      timer = null;
      fn(...last);
    }, ms);
  };
}

/** `el.replaceChildren(...)` without the nulls (which the DOM would print as "null"). */
export function fill(el, ...children) {
  el.replaceChildren(...children.flat().filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}
