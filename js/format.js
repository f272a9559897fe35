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

/** A percentage for people: "66 %", "<1 %", "—". */
export function fmtPct(part, whole) {
  if (part == null || !whole) return "—";
  const pct = (100 * part) / whole;
  return pct > 0 && pct < 1 ? "<1 %" : `${Math.round(pct)} %`;
}

/** Any value of a comparison or a setting as text: nothing is "null" or "[object Object]". */
export function fmtValue(value) {
  if (value === null || value === undefined || value === "") return "—";
  if (Array.isArray(value)) return value.length ? value.map(fmtValue).join(", ") : "—";
  if (typeof value === "object") {
    const parts = Object.entries(value)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => `${k} ${fmtValue(v)}`);
    return parts.length ? parts.join(", ") : "—";
  }
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : String(+value.toFixed(3));
  return String(value);
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

/** "14:03:21" for today, "Nov 30 14:03" before. */
export function fmtShortTime(wallSeconds, now = Date.now()) {
  if (!wallSeconds) return "";
  const d = new Date(wallSeconds * 1000);
  const today = new Date(now).toDateString() === d.toDateString();
  return today
    ? d.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" })
    : d.toLocaleString([], { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}

export function fmtTime(wallSeconds) {
  if (!wallSeconds) return "";
  const d = new Date(wallSeconds * 1000);
  return d.toLocaleString([], {
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
}
