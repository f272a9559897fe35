// Memory Probe's settings in ComfyUI's Settings dialog (MemProbe.*). The server-side ones are
// pushed to POST /memprobe/config (debounced); the canvas ones redraw the badges.

/** The value of a setting, or `fallback` when it is unset or the frontend cannot say. */
export function readSetting(app, id, fallback) {
  try {
    const value = app.extensionManager?.setting?.get(id);
    return value === undefined || value === null ? fallback : value;
  } catch {
    return fallback;
  }
}

/** A debounced POST /memprobe/config of the changes. */
export function configPusher(fetchJson, toast) {
  let timer = null;
  let pending = {};
  return (changes) => {
    Object.assign(pending, changes);
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const body = pending;
      pending = {};
      try {
        await fetchJson("/memprobe/config", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify(body),
        });
      } catch (e) {
        toast("error", "Memory Probe settings", e.message);
      }
    }, 400);
  };
}

/** The settings for registerExtension: `push(changes)` sends server settings, `redraw()` the badges. */
export function settings({ push, redraw }) {
  return [
    {
      id: "MemProbe.Tracing",
      category: ["Memory Probe", "Tracing", "Trace every node"],
      name: "Trace every node (memory before/after/peak of each node)",
      type: "boolean",
      defaultValue: true,
      onChange: (value) => push({ tracing: !!value }),
    },
    {
      id: "MemProbe.SampleRate",
      category: ["Memory Probe", "Tracing", "Sampling rate"],
      name: "Sampling rate while a run executes (Hz; 0 = automatic: 10 on the CPU, 20 with a GPU)",
      tooltip:
        "The timeline's resolution. Node peaks come from the OS's and torch's own peak counters where they exist, whatever the rate.",
      type: "slider",
      attrs: { min: 0, max: 200, step: 1 },
      defaultValue: 0,
      onChange: (value) => push({ sample_hz: Number(value) }),
    },
    {
      id: "MemProbe.RetentionRuns",
      category: ["Memory Probe", "History", "Runs kept"],
      name: "Runs kept in the ledger",
      type: "number",
      attrs: { min: 1, max: 100000, step: 1 },
      defaultValue: 2000,
      onChange: (value) => push({ retention_runs: Number(value) }),
    },
    {
      id: "MemProbe.RetentionMB",
      category: ["Memory Probe", "History", "Size"],
      name: "Largest size of the run ledger (MiB)",
      tooltip: "When the ledger reaches it, the oldest runs go first (whatever Runs kept says).",
      type: "number",
      attrs: { min: 16, max: 65536, step: 16 },
      defaultValue: 512,
      onChange: (value) => push({ retention_mb: Number(value) }),
    },
    {
      id: "MemProbe.Metrics",
      category: ["Memory Probe", "Metrics", "Prometheus"],
      name: "Serve Prometheus metrics at /memprobe/metrics",
      tooltip: "Read-only memory figures and run counts for Prometheus/Grafana; off, the route answers 404.",
      type: "boolean",
      defaultValue: true,
      onChange: (value) => push({ metrics: !!value }),
    },
    {
      id: "MemProbe.MetricsWorkflowLabel",
      category: ["Memory Probe", "Metrics", "Workflow label"],
      name: "Label run metrics by workflow (at most 20 workflows)",
      tooltip:
        "Adds a workflow label (an API client's extra_data.memprobe_workflow, else a hash of the node types) to the run counters and stage peaks. Each workflow multiplies their series, so it is off by default.",
      type: "boolean",
      defaultValue: false,
      onChange: (value) => push({ metrics_workflow_label: !!value }),
    },
    {
      id: "MemProbe.ForecastOnQueue",
      category: ["Memory Probe", "Forecast", "On queue"],
      name: "Forecast each queued prompt and warn when it won't fit",
      tooltip:
        "The server forecasts every queued prompt off ComfyUI's worker thread and shows a toast with the one change when it won't fit. The prompt is queued either way.",
      type: "boolean",
      defaultValue: true,
      onChange: (value) => push({ forecast_on_queue: !!value }),
    },
    {
      id: "MemProbe.Badges",
      category: ["Memory Probe", "Canvas", "Badges"],
      name: "Badge the heaviest nodes of the last run",
      type: "boolean",
      defaultValue: true,
      onChange: () => redraw(),
    },
    {
      id: "MemProbe.BadgeThresholdMB",
      category: ["Memory Probe", "Canvas", "Badge threshold"],
      name: "Badge a node when it raised memory by at least (MB)",
      type: "number",
      attrs: { min: 0, max: 1048576, step: 64 },
      defaultValue: 256,
      onChange: () => redraw(),
    },
  ];
}
