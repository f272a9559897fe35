// The panel's colours, per theme, chosen to be told apart on ComfyUI's dark and light
// backgrounds: every series and limit line has at least 3:1 contrast with the background (WCAG
// non-text contrast), every text on a coloured chip at least 4.5:1. Pure; tests/js checks it.

import { nodeToneIndex, severityIndex, stageIndex } from "./vocab.js";

/** WCAG relative luminance of "#rrggbb". */
export function luminance(hex) {
  const [r, g, b] = [1, 3, 5]
    .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
    .map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio of two "#rrggbb" colours (1 to 21). */
export function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** "#rrggbb" of a CSS colour string ("rgb(32, 32, 32)", "#202020", "#222"); null when unknown. */
export function toHex(css) {
  if (!css) return null;
  const s = String(css).trim();
  let m = /^#([0-9a-f]{3})$/i.exec(s);
  if (m) return `#${[...m[1]].map((c) => c + c).join("")}`.toLowerCase();
  if (/^#[0-9a-f]{6}$/i.test(s)) return s.toLowerCase();
  m = /^rgba?\(\s*(\d+)[ ,]+(\d+)[ ,]+(\d+)(?:[ ,/]+([\d.]+%?))?\s*\)$/i.exec(s);
  if (!m) return null;
  if (m[4] !== undefined && parseFloat(m[4]) === 0) return null; // transparent
  return `#${[m[1], m[2], m[3]].map((v) => Number(v).toString(16).padStart(2, "0")).join("")}`;
}

// Series: hues spaced apart (red, orange, yellow, lime, teal, blue, violet) so that no two
// memories share a colour; the light palette is the same hues, darker.
export const PALETTES = {
  dark: {
    background: ["#121212", "#171718", "#202020", "#262729", "#353535"],
    series: {
      vram: "#ff6b6b",
      reserved: "#ffa94d",
      allocated: "#ffe066",
      shared: "#e599f7",
      process: "#4dabf7",
      ram: "#63e6be",
      commit: "#c0eb75",
      offloaded: "#ced4da",
      container: "#f783ac",
    },
    text: "#e6e6e6",
    muted: "#a9a9ad",
    grid: "#ffffff1a",
    axis: "#b4b4b8",
  },
  light: {
    background: ["#ffffff", "#f4f4f5", "#e8e8ea"],
    series: {
      vram: "#d6336c",
      reserved: "#c2410c",
      allocated: "#8a6500",
      shared: "#9c36b5",
      process: "#1864ab",
      ram: "#087f5b",
      commit: "#5c7a0a",
      offloaded: "#495057",
      container: "#364fc7",
    },
    text: "#1e1e20",
    muted: "#55555c",
    grid: "#0000001a",
    axis: "#4a4a50",
  },
};

// Palettes for the server's lists (memprobe/vocabulary.py), in their order: the i-th entry of the
// list gets the i-th colour, and one past the end gets the last. tests/js checks there are enough.
const pick = (list, i) => list[Math.max(0, Math.min(i, list.length - 1))];

// Chips: a label on a coloured ground, readable at 4.5:1, by severity (critical, warning, note).
export const SEVERITY_COLORS = [
  { bg: "#c92a2a", fg: "#ffffff" },
  { bg: "#f59f00", fg: "#1a1a1a" },
  { bg: "#4a4f57", fg: "#ffffff" },
];
export const severityColors = (severity) => pick(SEVERITY_COLORS, severityIndex(severity));

// Badges on the canvas, by the verdict's tone of the node: neutral, near the limit the OS
// enforces, failed.
export const BADGE_COLORS = [
  { bg: "#4a4f57", fg: "#ffffff" },
  { bg: "#f59f00", fg: "#1a1a1a" },
  { bg: "#c92a2a", fg: "#ffffff" },
];
export const badgeColors = (tone) => pick(BADGE_COLORS, nodeToneIndex(tone));

// Stage colours: node bands on the timeline and the table's stage chips (dark text on them), in
// the server's order of stages (load, text-encode, sampling, vae-decode, ... other).
export const STAGE_PALETTE = [
  "#9775fa",
  "#4dabf7",
  "#ff922b",
  "#ff6b6b",
  "#f783ac",
  "#8ce99a",
  "#ffd43b",
  "#66d9e8",
  "#ffe066",
  "#adb5bd",
  "#d0bfff",
  "#868e96",
];
export const stageColor = (stage) => pick(STAGE_PALETTE, stageIndex(stage));
export const STAGE_TEXT = "#111111";

/** "dark" or "light" for a background colour. */
export function themeFor(background) {
  const hex = toHex(background);
  return hex && luminance(hex) > 0.4 ? "light" : "dark";
}
