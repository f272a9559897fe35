// Formatting and the palette shared by the panel's modules. Pure: no DOM, no ComfyUI.

export const GIB = 1024 ** 3;
export const MIB = 1024 ** 2;

export function fmtBytes(value, { signed = false } = {}) {
  if (value === null || value === undefined || Number.isNaN(value)) return "—";
  const sign = value < 0 ? "−" : signed ? "+" : "";
  const size = Math.abs(value);
  if (size >= GIB) return `${sign}${(size / GIB).toFixed(size >= 100 * GIB ? 0 : 1)} GiB`;
  if (size >= MIB) return `${sign}${(size / MIB).toFixed(0)} MiB`;
  if (size >= 1024) return `${sign}${(size / 1024).toFixed(0)} KiB`;
  return `${sign}${size.toFixed(0)} B`;
}

export function fmtPair(used, total) {
  if (used == null) return "—";
  if (!total) return fmtBytes(used);
  return `${fmtBytes(used)} / ${fmtBytes(total)} (${Math.round((100 * used) / total)}%)`;
}

export function fmtSeconds(value) {
  if (value === null || value === undefined) return "—";
  if (value < 1) return `${Math.round(value * 1000)} ms`;
  if (value < 120) return `${value.toFixed(value < 10 ? 2 : 1)} s`;
  return `${Math.floor(value / 60)} min ${Math.round(value % 60)} s`;
}

export function fmtTime(wallSeconds) {
  if (!wallSeconds) return "";
  const d = new Date(wallSeconds * 1000);
  return d.toLocaleString([], { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

// One colour per stage: the timeline's node bands and the table's stage chips.
export const STAGE_COLORS = {
  load: "#8e7cc3",
  "text-encode": "#6fa8dc",
  sampling: "#e69138",
  "vae-decode": "#e06666",
  "vae-encode": "#c27ba0",
  upscale: "#93c47d",
  video: "#f6b26b",
  image: "#76a5af",
  probe: "#ffd966",
  output: "#999999",
  custom: "#b4a7d6",
  other: "#666666",
};

export const STATUS_LABELS = {
  running: "running",
  pending: "waiting",
  ran: "ran",
  cached: "cached",
  failed: "failed",
  interrupted: "interrupted",
};
