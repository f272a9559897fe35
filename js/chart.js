// The memory timeline: uPlot (vendored, served from /memprobe/static/uplot/) on a zero-based
// axis, with the enforced limit drawn as a labelled line, node bands coloured by stage (a strip
// and alternating shades so neighbours read apart; a running node's band grows live), markers
// for probes / failures / fallbacks, the run's peak, and a floating tooltip. Drag to zoom, wheel
// to zoom, shift-drag (or the middle button) to pan, double-click to reset.

import {
  appendSamples,
  bandAt,
  chartData,
  limitLines,
  markers,
  nearestIndex,
  nodeBands,
  peakMarker,
  seriesSpecs,
  yRange,
} from "./chartdata.js";
import { PALETTES, themeFor, toHex } from "./colors.js";
import { fmtBytes, fmtSeconds } from "./format.js";
import { OFFLOADED_KEY, offloadedSeries } from "./models.js";

const MIB = 1024 ** 2;
// Tick steps in whole binary units: 64 MiB ... 512 MiB, 1 GiB, 2 GiB ... 1 TiB.
const BYTE_STEPS = [
  1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288, 1048576,
].map((m) => m * MIB);

const UPLOT_BASE = new URL("../../memprobe/static/uplot/", import.meta.url);
let uPlotModule = null;

export async function loadUPlot() {
  if (!uPlotModule) {
    if (!document.querySelector("link[data-memprobe-uplot]")) {
      const link = document.createElement("link");
      link.rel = "stylesheet";
      link.href = new URL("uPlot.min.css", UPLOT_BASE).href;
      link.dataset.memprobeUplot = "1";
      document.head.appendChild(link);
    }
    uPlotModule = (await import(new URL("uPlot.esm.js", UPLOT_BASE).href)).default;
  }
  return uPlotModule;
}

/** The colour the chart is drawn on: the first opaque background up the tree. */
function backgroundOf(el) {
  for (let node = el; node && node.nodeType === 1; node = node.parentElement) {
    const hex = toHex(getComputedStyle(node).backgroundColor);
    if (hex) return hex;
  }
  return "#202020";
}

function overlaysPlugin(state) {
  const px = (v) => v * devicePixelRatio;
  return {
    hooks: {
      drawClear: [
        (u) => {
          const { ctx } = u;
          const { left, top, width, height } = u.bbox;
          ctx.save();
          ctx.beginPath();
          ctx.rect(left, top, width, height);
          ctx.clip();
          state.bands.forEach((b, i) => {
            const x0 = u.valToPos(b.start, "x", true);
            const x1 = Math.max(x0 + 1, u.valToPos(b.end, "x", true));
            if (x1 < left || x0 > left + width) return;
            ctx.globalAlpha = b.status === "failed" ? 0.3 : i % 2 ? 0.15 : 0.08;
            ctx.fillStyle = b.color;
            ctx.fillRect(x0, top, x1 - x0, height);
            ctx.globalAlpha = 1;
            ctx.fillRect(x0, top, x1 - x0, px(4)); // the stage strip
            ctx.fillRect(x0, top, px(1), height); // where the node starts
            if (x1 - x0 > px(46)) {
              ctx.fillStyle = state.palette.muted;
              ctx.font = `${px(11)}px sans-serif`;
              ctx.textAlign = "left"; // uPlot leaves its axes' alignment on the shared context
              ctx.textBaseline = "top";
              const text = b.label.length > 24 ? `${b.label.slice(0, 23)}…` : b.label;
              ctx.fillText(text, x0 + px(4), top + px(7), x1 - x0 - px(8));
            }
          });
          ctx.restore();
        },
      ],
      draw: [
        (u) => {
          const { ctx } = u;
          const { left, top, width, height } = u.bbox;
          ctx.save();
          ctx.font = `${px(11)}px sans-serif`;
          let above = 0;
          const taken = []; // the off-scale limits' labels: the peak's label keeps clear of them
          for (const l of state.limits) {
            const y = u.valToPos(l.value, "y", true);
            if (y < top - 1) {
              // off the scale: named at the top right, with how far the data stayed below it
              const text = `↑ ${l.label} limit ${fmtBytes(l.value)}`;
              ctx.fillStyle = l.color;
              ctx.textAlign = "right";
              ctx.textBaseline = "top";
              const ly = top + px(8) + above * px(14);
              ctx.fillText(text, left + width - px(5), ly);
              ctx.textAlign = "left";
              const lw = ctx.measureText(text).width;
              taken.push({ x0: left + width - px(5) - lw, x1: left + width - px(5), y0: ly, y1: ly + px(13) });
              above++;
              continue;
            }
            if (y > top + height) continue;
            ctx.strokeStyle = l.color;
            ctx.lineWidth = px(1.5);
            ctx.setLineDash([px(6), px(4)]);
            ctx.beginPath();
            ctx.moveTo(left, y);
            ctx.lineTo(left + width, y);
            ctx.stroke();
            ctx.setLineDash([]);
            const text = `${l.label} ${fmtBytes(l.value)}`;
            const w = ctx.measureText(text).width;
            ctx.fillStyle = state.background;
            ctx.fillRect(left + width - w - px(8), y - px(15), w + px(6), px(13));
            ctx.fillStyle = l.color;
            ctx.textAlign = "right";
            ctx.textBaseline = "bottom";
            ctx.fillText(text, left + width - px(5), y - px(3));
            ctx.textAlign = "left";
          }
          ctx.lineWidth = px(2);
          for (const m of state.markers) {
            const x = u.valToPos(m.t, "x", true);
            ctx.strokeStyle = m.color;
            ctx.setLineDash(m.kind === "probe" ? [px(4), px(3)] : []);
            ctx.beginPath();
            ctx.moveTo(x, top);
            ctx.lineTo(x, top + height);
            ctx.stroke();
          }
          ctx.setLineDash([]);
          const p = state.peak;
          const spec = p && state.specs.find((s) => s.key === p.key);
          if (p && spec && !state.hidden.has(p.key)) {
            const x = u.valToPos(p.t, "x", true);
            const y = u.valToPos(p.value, "y", true);
            if (x >= left && x <= left + width) {
              ctx.fillStyle = spec.color;
              ctx.strokeStyle = state.background;
              ctx.lineWidth = px(2);
              ctx.beginPath();
              ctx.arc(x, y, px(5), 0, 2 * Math.PI);
              ctx.fill();
              ctx.stroke();
              const text = `${p.label} ${fmtBytes(p.value)}`;
              const w = ctx.measureText(text).width;
              // beside the dot, on the side with room (the top right holds the off-scale limits)
              const tx = x - left > width * 0.6 ? x - w - px(10) : x + px(10);
              let ty = y - px(4) < top + px(30) ? y + px(16) : y - px(4);
              const clashes = (ty) =>
                taken.some(
                  (r) => tx - px(3) < r.x1 && tx + w + px(3) > r.x0 && ty - px(12) < r.y1 && ty + px(3) > r.y0,
                );
              if (clashes(ty)) ty = y + px(16);
              if (clashes(ty)) ty = Math.max(...taken.map((r) => r.y1)) + px(15);
              ctx.fillStyle = state.background;
              ctx.fillRect(tx - px(3), ty - px(12), w + px(6), px(15));
              ctx.fillStyle = spec.color;
              ctx.textAlign = "left";
              ctx.textBaseline = "bottom";
              ctx.fillText(text, tx, ty + px(2));
            }
          }
          ctx.restore();
        },
      ],
    },
  };
}

function zoomPanPlugin() {
  return {
    hooks: {
      ready: [
        (u) => {
          const over = u.over;
          over.addEventListener(
            "wheel",
            (e) => {
              e.preventDefault();
              const { left } = over.getBoundingClientRect();
              const x = u.posToVal(e.clientX - left, "x");
              const { min, max } = u.scales.x;
              const factor = e.deltaY < 0 ? 0.8 : 1.25;
              u.setScale("x", { min: x - (x - min) * factor, max: x + (max - x) * factor });
            },
            { passive: false },
          );
          over.addEventListener(
            "mousedown",
            (e) => {
              if (!(e.shiftKey || e.button === 1)) return;
              e.preventDefault();
              e.stopPropagation();
              const startX = e.clientX;
              const { min, max } = u.scales.x;
              const perPx = (max - min) / (u.bbox.width / devicePixelRatio);
              const move = (ev) => {
                const dx = (ev.clientX - startX) * perPx;
                u.setScale("x", { min: min - dx, max: max - dx });
              };
              const up = () => {
                document.removeEventListener("mousemove", move);
                document.removeEventListener("mouseup", up);
              };
              document.addEventListener("mousemove", move);
              document.addEventListener("mouseup", up);
            },
            true,
          );
          over.addEventListener("dblclick", () =>
            u.setScale("x", { min: u.data[0][0], max: u.data[0][u.data[0].length - 1] }),
          );
        },
      ],
    },
  };
}

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

/**
 * A chart in `host`. `size()` gives {width, height}; `onBandClick(band)` when a node band is
 * clicked; `onChange()` when the series or limits change (to redraw a legend); `fallback()` the
 * live status's `memory` for a run that has none yet.
 */
export async function createChart(
  host,
  { size = null, onBandClick = () => {}, onChange = () => {}, fallback = () => null } = {},
) {
  const uPlot = await loadUPlot();
  host.classList.add("mp-chart-host");
  const plotEl = el("div", "mp-plot");
  const tip = el("div", "mp-tip");
  tip.setAttribute("role", "tooltip");
  tip.hidden = true;
  host.replaceChildren(plotEl, tip);
  const state = {
    doc: null,
    live: false,
    timeline: { t: [], series: {} },
    specs: [],
    hidden: new Set(),
    bands: [],
    markers: [],
    limits: [],
    peak: null,
    plot: null,
    palette: PALETTES.dark,
    background: "#202020",
  };

  const measure = () => {
    const s = size ? size() : { width: host.clientWidth, height: 240 };
    return { width: Math.max(240, Math.floor(s.width || 300)), height: Math.max(140, Math.floor(s.height || 240)) };
  };

  function showTip(u) {
    const idx = u.cursor.idx;
    if (idx == null || u.cursor.left == null || u.cursor.left < 0) {
      tip.hidden = true;
      return;
    }
    const t = u.data[0][idx];
    const band = bandAt(state.bands, t);
    const rows = [el("div", "mp-tip-head", `${fmtSeconds(t)}${band ? ` · ${band.label}` : ""}`)];
    if (band)
      rows.push(el("div", "mp-tip-sub", `node ${band.nodeId} · ${band.stage}${band.running ? " · running" : ""}`));
    state.specs.forEach((s, i) => {
      const v = u.data[i + 1][idx];
      if (v == null || state.hidden.has(s.key)) return;
      const row = el("div", "mp-tip-row");
      const sw = el("i");
      sw.style.background = s.color;
      row.append(sw, el("span", "", s.label), el("b", "", fmtBytes(v)));
      rows.push(row);
    });
    tip.replaceChildren(...rows);
    tip.hidden = false;
    const x = u.cursor.left + u.over.offsetLeft;
    const y = (u.cursor.top ?? 0) + u.over.offsetTop;
    const w = tip.offsetWidth;
    const left = x + 14 + w > host.clientWidth ? x - w - 14 : x + 14;
    tip.style.left = `${Math.max(0, left)}px`;
    tip.style.top = `${Math.max(0, Math.min(y + 10, host.clientHeight - tip.offsetHeight))}px`;
  }

  function options({ width, height }) {
    const p = state.palette;
    const axis = {
      stroke: p.axis,
      grid: { stroke: p.grid, width: 1 },
      ticks: { stroke: p.grid },
      font: "12px sans-serif",
    };
    return {
      width,
      height,
      legend: { show: false },
      cursor: { drag: { x: true, y: false, setScale: true }, points: { show: false } },
      scales: {
        x: { time: false },
        y: {
          range: (u) =>
            yRange(
              u.data.filter((_, i) => i === 0 || !state.hidden.has(state.specs[i - 1]?.key)),
              state.limits,
            ),
        },
      },
      axes: [
        { ...axis, space: 70, values: (_u, ticks) => ticks.map((v) => `${+v.toFixed(1)} s`) },
        { ...axis, size: 70, space: 36, incrs: BYTE_STEPS, values: (_u, ticks) => ticks.map((v) => fmtBytes(v)) },
      ],
      series: [
        {},
        ...state.specs.map((s) => ({
          label: s.label,
          stroke: s.color,
          width: s.width,
          dash: s.dash,
          show: !state.hidden.has(s.key),
          points: { show: false },
        })),
      ],
      plugins: [overlaysPlugin(state), zoomPanPlugin()],
      hooks: { setCursor: [showTip] },
    };
  }

  function rebuild() {
    state.plot?.destroy();
    state.background = backgroundOf(host);
    state.palette = PALETTES[themeFor(state.background)];
    state.specs = seriesSpecs(state.timeline, { palette: state.palette });
    state.limits = limitLines(state.doc, state.specs, { fallback: fallback(), palette: state.palette });
    state.plot = new uPlot(options(measure()), chartData(state.timeline, state.specs), plotEl);
    state.plot.over.addEventListener("mouseleave", () => (tip.hidden = true));
    state.plot.over.addEventListener("click", (e) => {
      if (e.shiftKey) return;
      const { left } = state.plot.over.getBoundingClientRect();
      const band = bandAt(state.bands, state.plot.posToVal(e.clientX - left, "x"));
      if (band) onBandClick(band);
    });
    onChange();
  }

  /** The model weight ComfyUI kept in RAM, from the nodes' readings (only when some was);
   * returns whether the series came or went. */
  const updateOffloaded = () => {
    const had = OFFLOADED_KEY in state.timeline.series;
    const column = offloadedSeries(state.doc?.nodes, state.timeline.t);
    if (column?.some((v) => v)) state.timeline.series[OFFLOADED_KEY] = column;
    else delete state.timeline.series[OFFLOADED_KEY];
    return had !== OFFLOADED_KEY in state.timeline.series;
  };

  const overlays = () => {
    const now = state.live ? state.timeline.t.at(-1) : null;
    state.bands = nodeBands(state.doc?.nodes, now);
    state.markers = markers(state.doc);
    state.peak = peakMarker({ ...state.doc, timeline: state.timeline }, { fallback: fallback() });
  };

  const chart = {
    state,
    get plot() {
      return state.plot;
    },
    get specs() {
      return state.specs;
    },
    get limits() {
      return state.limits;
    },
    /** Show a whole run (stored or live); null clears the chart. */
    setDoc(doc, { live = false } = {}) {
      state.doc = doc;
      state.live = live;
      state.timeline = doc?.timeline
        ? {
            t: [...doc.timeline.t],
            series: Object.fromEntries(Object.entries(doc.timeline.series).map(([k, v]) => [k, [...v]])),
          }
        : { t: [], series: {} };
      updateOffloaded();
      overlays();
      rebuild();
    },
    /** Add live samples ({t, series}) and redraw; the running node's band grows with them. */
    appendSamples(batch) {
      appendSamples(state.timeline, batch);
      updateOffloaded();
      overlays();
      const next = seriesSpecs(state.timeline, { palette: state.palette });
      if (next.length !== state.specs.length || next.some((s, i) => s.key !== state.specs[i].key)) rebuild();
      else state.plot?.setData(chartData(state.timeline, state.specs));
    },
    /** Node bands and markers changed (a node started or ended, a probe fired). */
    refreshOverlays(doc) {
      state.doc = doc;
      const changed = updateOffloaded();
      overlays();
      if (changed) rebuild();
      else if (OFFLOADED_KEY in state.timeline.series) state.plot?.setData(chartData(state.timeline, state.specs));
      else state.plot?.redraw(false, false);
    },
    /** Show or hide a series; returns whether it is shown now. */
    toggle(key) {
      const index = state.specs.findIndex((s) => s.key === key);
      if (index < 0 || !state.plot) return false;
      const show = state.hidden.has(key);
      if (show) state.hidden.delete(key);
      else state.hidden.add(key);
      state.plot.setSeries(index + 1, { show });
      state.plot.setData(state.plot.data); // the y range follows what is shown
      return show;
    },
    isShown(key) {
      return !state.hidden.has(key);
    },
    resize() {
      if (!state.plot || !host.isConnected) return;
      const next = measure();
      if (next.width !== state.plot.width || next.height !== state.plot.height) state.plot.setSize(next);
    },
    /** Redraw with the theme's palette (after the user switched ComfyUI's colour palette). */
    retheme() {
      if (state.doc || state.timeline.t.length) rebuild();
    },
    pointCount() {
      return state.timeline.t.length;
    },
    nearest(t) {
      return nearestIndex(state.timeline.t, t);
    },
    destroy() {
      state.plot?.destroy();
      state.plot = null;
    },
  };
  return chart;
}
