// The memory timeline: uPlot (vendored, served from /memprobe/static/uplot/) with node bands
// coloured by stage, markers for probes / failures / fallbacks, hover, drag-zoom, wheel-zoom
// and drag-pan (shift or middle button). Double-click resets the view.

import { appendSamples, bandAt, chartData, limitsOf, markers, nearestIndex, nodeBands, seriesSpecs } from "./chartdata.js";
import { OFFLOADED_KEY, offloadedSeries } from "./models.js";
import { fmtBytes } from "./format.js";

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

function bandsPlugin(state) {
  return {
    hooks: {
      drawClear: [
        (u) => {
          const { ctx } = u;
          const { top, height } = u.bbox;
          ctx.save();
          for (const b of state.bands) {
            const x0 = u.valToPos(b.start, "x", true);
            const x1 = u.valToPos(b.end, "x", true);
            if (x1 < u.bbox.left || x0 > u.bbox.left + u.bbox.width) continue;
            ctx.fillStyle = b.color + (b.status === "failed" ? "55" : "26");
            ctx.fillRect(x0, top, Math.max(1, x1 - x0), height);
          }
          ctx.restore();
        },
      ],
      draw: [
        (u) => {
          const { ctx } = u;
          const { top, height } = u.bbox;
          ctx.save();
          ctx.lineWidth = 2 * devicePixelRatio;
          for (const m of state.markers) {
            const x = u.valToPos(m.t, "x", true);
            ctx.strokeStyle = m.color;
            ctx.setLineDash(m.kind === "probe" ? [4 * devicePixelRatio, 3 * devicePixelRatio] : []);
            ctx.beginPath();
            ctx.moveTo(x, top);
            ctx.lineTo(x, top + height);
            ctx.stroke();
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
          over.addEventListener("wheel", (e) => {
            e.preventDefault();
            const { left } = over.getBoundingClientRect();
            const x = u.posToVal(e.clientX - left, "x");
            const { min, max } = u.scales.x;
            const factor = e.deltaY < 0 ? 0.8 : 1.25;
            u.setScale("x", { min: x - (x - min) * factor, max: x + (max - x) * factor });
          }, { passive: false });
          over.addEventListener("mousedown", (e) => {
            if (!(e.shiftKey || e.button === 1)) return;
            e.preventDefault();
            e.stopPropagation();
            const startX = e.clientX;
            const { min, max } = u.scales.x;
            const perPx = (max - min) / u.bbox.width * devicePixelRatio;
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
          }, true);
          over.addEventListener("dblclick", () => u.setScale("x", { min: u.data[0][0], max: u.data[0][u.data[0].length - 1] }));
        },
      ],
    },
  };
}

/**
 * A chart in `el`. `onHover({t, band, values})` is called as the cursor moves (values: [{label,
 * color, value}]); `onBandClick(band)` when a node band is clicked.
 */
export async function createChart(el, { onHover = () => {}, onBandClick = () => {}, height = 220, liveMemory = () => undefined } = {}) {
  // a stored run knows its limits (doc.memory); a live one takes them from the server's status
  const limitsFor = (doc) => limitsOf(doc, doc?.memory || liveMemory());
  const uPlot = await loadUPlot();
  const state = { doc: null, timeline: { t: [], series: {} }, specs: [], bands: [], markers: [], plot: null, live: false };

  function options(width) {
    return {
      width,
      height,
      legend: { show: false },
      cursor: { drag: { x: true, y: false, setScale: true }, points: { show: false } },
      scales: { x: { time: false } },
      axes: [
        { stroke: "#999", grid: { stroke: "#ffffff14" }, values: (u, ticks) => ticks.map((v) => `${+v.toFixed(1)}s`) },
        { stroke: "#999", grid: { stroke: "#ffffff14" }, size: 64, values: (u, ticks) => ticks.map((v) => fmtBytes(v)) },
      ],
      series: [{}, ...state.specs.map((s) => ({ label: s.label, stroke: s.color, width: s.width, dash: s.dash, points: { show: false } }))],
      plugins: [bandsPlugin(state), zoomPanPlugin()],
      hooks: {
        setCursor: [
          (u) => {
            const idx = u.cursor.idx;
            if (idx == null) return onHover(null);
            const t = u.data[0][idx];
            onHover({
              t,
              band: bandAt(state.bands, t),
              values: state.specs.map((s, i) => ({ label: s.label, color: s.color, value: u.data[i + 1][idx] })),
            });
          },
        ],
      },
    };
  }

  function rebuild() {
    state.plot?.destroy();
    const width = Math.max(200, el.clientWidth || 300);
    state.plot = new uPlot(options(width), chartData(state.timeline, state.specs), el);
    state.plot.over.addEventListener("click", (e) => {
      if (e.shiftKey) return;
      const { left } = state.plot.over.getBoundingClientRect();
      const band = bandAt(state.bands, state.plot.posToVal(e.clientX - left, "x"));
      if (band) onBandClick(band);
    });
  }

  /** The model weight ComfyUI kept in RAM, from the nodes' readings (only when some was). */
  function updateOffloaded() {
    const column = offloadedSeries(state.doc?.nodes, state.timeline.t);
    if (column && column.some((v) => v)) state.timeline.series[OFFLOADED_KEY] = column;
    else delete state.timeline.series[OFFLOADED_KEY];
  }

  function specsChanged(next) {
    return next.length !== state.specs.length || next.some((s, i) => s.key !== state.specs[i].key);
  }

  const chart = {
    state,
    get plot() {
      return state.plot;
    },
    /** Show a whole run (stored or live). */
    setDoc(doc, { live = false } = {}) {
      state.doc = doc;
      state.live = live;
      state.timeline = doc?.timeline ? { t: [...doc.timeline.t], series: Object.fromEntries(Object.entries(doc.timeline.series).map(([k, v]) => [k, [...v]])) } : { t: [], series: {} };
      updateOffloaded();
      state.specs = seriesSpecs(state.timeline, limitsFor(doc));
      state.bands = nodeBands(doc?.nodes, live ? state.timeline.t.at(-1) : null);
      state.markers = markers(doc);
      rebuild();
    },
    /** Add live samples ({t, series}) and redraw. */
    appendSamples(batch) {
      appendSamples(state.timeline, batch);
      updateOffloaded();
      const next = seriesSpecs(state.timeline, limitsFor(state.doc));
      if (specsChanged(next)) {
        state.specs = next;
        rebuild();
      } else {
        state.plot?.setData(chartData(state.timeline, state.specs));
      }
    },
    /** Node bands and markers changed (a node ended, a probe fired). */
    refreshOverlays(doc) {
      state.doc = doc;
      state.bands = nodeBands(doc?.nodes, state.live ? state.timeline.t.at(-1) : null);
      state.markers = markers(doc);
      const had = OFFLOADED_KEY in state.timeline.series;
      updateOffloaded();
      if (had !== (OFFLOADED_KEY in state.timeline.series)) {
        state.specs = seriesSpecs(state.timeline, limitsFor(doc));
        rebuild();
      } else if (had) state.plot?.setData(chartData(state.timeline, state.specs));
      else state.plot?.redraw(false, false);
    },
    resize() {
      if (state.plot && el.clientWidth) state.plot.setSize({ width: el.clientWidth, height });
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
