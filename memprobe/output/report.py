"""The shareable report of one run: what a good bug report needs — the exact error,
GPU and driver, install type, versions, launch options, peaks by stage, the first failure, the
suggestions and the smallest failing workflow — with prompts, paths and ids removed."""

from __future__ import annotations

import json
from typing import Any

from .. import __version__
from ..format import fmt_bytes, fmt_pair
from ..judging.advice import suggest
from ..judging.residency import describe_change, describe_model, partial_loads, stage_models
from ..judging.runfacts import compute_limit, run_peaks, stage_summary, system_limit
from ..judging.workflow import upstream, workflow_parameters
from ..privacy import sanitize_prompt, scrub_all

__all__ = ["build_report", "render_report_md", "report", "suggestions_md"]


def build_report(doc: dict[str, Any], machine: dict[str, Any] | None = None) -> dict[str, Any]:
    """The report as a JSON-ready dict; every string in it has been through the sanitizer."""
    context = doc.get("context") or {}
    failure = doc.get("failure") or None
    error = doc.get("error") or {}
    prompt = doc.get("prompt")
    failing_node = (failure or {}).get("node_id") or error.get("node_id")
    smallest = upstream(prompt, failing_node) if prompt and failing_node else prompt
    compute, system_bound = compute_limit(doc), system_limit(doc)
    metric = compute.metric
    peaks = run_peaks(doc)
    params = workflow_parameters(prompt)
    report = {
        "memprobe_version": __version__,
        "run": {"status": doc.get("status"), "started_at": doc.get("started_at"), "duration_s": doc.get("duration_s"),
                "node_count": len(doc.get("nodes") or [])},
        "error": {
            "exception_type": (failure or {}).get("exception_type") or error.get("exception_type"),
            "message": (failure or {}).get("message") or error.get("exception_message"),
            "node_id": failing_node,
            "class_type": (failure or {}).get("class_type") or error.get("node_type"),
            "stage": (failure or {}).get("stage"),
            "kind": (failure or {}).get("kind"),
        } if failure or error else None,
        "system": {
            "os": context.get("os"),
            "install": (context.get("install") or {}).get("type"),
            "compute_device": context.get("compute_device"),
            "gpus": [{"name": g.get("name"), "driver_version": g.get("driver_version"),
                      "vram_total_bytes": g.get("vram_total_bytes")} for g in context.get("gpus") or []],
            "ram_total_bytes": context.get("ram_total_bytes"),
            "commit_limit_bytes": context.get("commit_limit_bytes"),
            "swap_total_bytes": context.get("swap_total_bytes"),
            "memory_limit": {"name": system_bound.name, "bytes": system_bound.limit_bytes,
                             "enforced": system_bound.enforced},
        },
        "versions": {k: context.get(f"{k}_version") for k in ("comfyui", "frontend", "torch", "python")},
        "launch_options": context.get("argv") or [],
        "parameters": params,
        "memory": {
            "metric": metric,
            "limit_bytes": compute.limit_bytes,
            "limit_name": compute.name,
            "run_peaks": {k: v for k, v in peaks.items() if not k.endswith(("total_bytes", "limit_bytes"))},
            "by_stage": {stage: {"time_s": s["time_s"], "peaks": s["peaks"], "exact_peaks": sorted(s["exact"]),
                                 "failed": s["failed"]}
                         for stage, s in stage_summary(doc).items()},
        },
        "models": _models(doc),
        "fallbacks": [{k: e.get(k) for k in ("kind", "node_id", "message")} for e in doc.get("events") or []
                      if not str(e.get("kind")).startswith("model-")],
        "model_log": [{k: e.get(k) for k in ("kind", "node_id", "message")} for e in doc.get("events") or []
                      if str(e.get("kind")).startswith("model-")],
        "suggestions": [s.to_dict() for s in suggest(doc, machine)],
        "smallest_failing_workflow" if failing_node else "workflow": sanitize_prompt(smallest),
    }
    return scrub_all(report)


_MODEL_KEYS = ("name", "class", "kind", "file", "device", "size_bytes", "loaded_bytes", "offloaded_bytes", "dtype",
               "dynamic")


def _models(doc: dict[str, Any]) -> dict[str, Any] | None:
    """The per-stage model picture: what ComfyUI's model manager held at the end of each stage,
    what each stage changed, and the partial loads; ``None`` when the run has no readings."""
    stages = stage_models(doc)
    if doc.get("models_end") is None and all(s["models"] is None for s in stages.values()):
        return None

    def brief(models: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
        return None if models is None else [{k: m.get(k) for k in _MODEL_KEYS} for m in models]

    return {
        "by_stage": {stage: {"models": brief(s["models"]),
                             "changes": [{"node_id": c["node_id"], "change": c["change"], "name": c["name"],
                                          "text": describe_change(c)} for c in s["changes"]]}
                     for stage, s in stages.items()},
        "at_end": brief(doc.get("models_end")),
        "partial_loads": partial_loads(doc),
    }


def render_report_md(report: dict[str, Any]) -> str:
    """The report as Markdown, to paste into an issue or a forum post."""
    lines = ["# Memory Probe report", ""]
    run, error, system, versions = report["run"], report["error"], report["system"], report["versions"]
    lines.append(f"Outcome: **{run['status']}** after {run['duration_s'] or 0:.1f} s ({run['node_count']} nodes).")
    if error:
        lines += ["", "## Error", "",
                  f"`{error['exception_type']}` at node {error['node_id']} ({error['class_type']}, stage "
                  f"{error['stage']}), memory kind: **{error['kind']}**", "", "```text",
                  str(error["message"] or "").strip(), "```"]
    lines += ["", "## System", ""]
    gpus = "; ".join(f"{g['name']} ({fmt_bytes(g['vram_total_bytes'])}, driver {g['driver_version'] or '?'})"
                     for g in system["gpus"]) or f"none (ComfyUI runs on {system['compute_device'] or 'the CPU'})"
    lines += [f"- GPU: {gpus}", f"- RAM: {fmt_bytes(system['ram_total_bytes'])}; commit limit "
              f"{fmt_bytes(system['commit_limit_bytes'])}; swap/pagefile {fmt_bytes(system['swap_total_bytes'])}; "
              f"the limit that ends ComfyUI: {system['memory_limit']['name']} "
              f"({fmt_bytes(system['memory_limit']['bytes'])})",
              f"- OS: {system['os']}; install: {system['install']}",
              f"- Versions: ComfyUI {versions['comfyui']}, frontend {versions['frontend']}, torch {versions['torch']}, "
              f"Python {versions['python']}, Memory Probe {report['memprobe_version']}",
              f"- Launch options: `{' '.join(report['launch_options']) or '(none)'}`"]
    params = report["parameters"]
    shown = {k: v for k, v in params.items() if k != "decode"}
    if params.get("decode"):
        shown["decode"] = ", ".join(f"{k} {v}" for k, v in params["decode"].items() if k != "node_id")
    lines += ["", "## Workflow settings", ""] + [f"- {k}: {v if not isinstance(v, list) else ', '.join(map(str, v))}"
                                                for k, v in shown.items()]
    memory = report["memory"]
    name = {"gpu0_used_bytes": "VRAM", "ram_used_bytes": "RAM", "commit_bytes": "commit",
            "cgroup_used_bytes": "container memory"}.get(memory["metric"], memory["metric"])
    lines += ["", "## Peaks by stage", "", f"| stage | time | peak {name} | peak process RSS | peak commit |",
              "| --- | --- | --- | --- | --- |"]
    for stage, s in memory["by_stage"].items():
        mark = " ✗" if s["failed"] else ""

        def peak(metric: str, text: str, s: dict[str, Any] = s) -> str:
            sampled = s["peaks"].get(metric) is not None and metric not in s.get("exact_peaks", ())
            return f"≥ {text}" if sampled else text

        lines.append(f"| {stage}{mark} | {s['time_s']:.2f} s "
                     f"| {peak(memory['metric'], fmt_pair(s['peaks'].get(memory['metric']), memory['limit_bytes']))}"
                     f" | {peak('process_rss_bytes', fmt_bytes(s['peaks'].get('process_rss_bytes')))}"
                     f" | {peak('commit_bytes', fmt_bytes(s['peaks'].get('commit_bytes')))} |")
    lines += ["", "≥: a sampled peak, the highest reading (a short spike between two readings can go higher); the "
              "others are exact, from the operating system's or torch's own peak counters."]
    models = report.get("models")
    if models:
        lines += ["", "## Models by stage", "", "What ComfyUI's model manager held when each stage ended, and what "
                  "the stage changed.", "", "| stage | models held | changes |", "| --- | --- | --- |"]
        for stage, entry in models["by_stage"].items():
            held = "<br>".join(describe_model(m) for m in entry["models"]) if entry["models"] else (
                "none" if entry["models"] == [] else "unknown")
            changed = "<br>".join(f"node {c['node_id']}: {c['text']}" for c in entry["changes"]) or "—"
            lines.append(f"| {stage} | {held} | {changed} |")
        if models["partial_loads"]:
            lines += ["", "Partial loads (the rest of the model stayed in RAM because VRAM was short):", ""]
            lines += [f"- node {p['node_id']}: {p['name']}: {fmt_bytes(p['loaded_bytes'])} on {p['device'] or 'the GPU'}, "
                      f"{fmt_bytes(p['offloaded_bytes'])} in RAM" for p in models["partial_loads"]]
    if report.get("model_log"):
        lines += ["", "ComfyUI's model log lines:", "", "```text"]
        lines += [e["message"] for e in report["model_log"][:50]] + ["```"]
    if report["fallbacks"]:
        lines += ["", "## Silent out-of-memory events", ""]
        lines += [f"- {e['kind']} at node {e['node_id']}: {e['message']}" for e in report["fallbacks"]]
    lines += suggestions_md(report["suggestions"], "None: nothing in this run points to a memory limit.")
    key = "smallest_failing_workflow" if "smallest_failing_workflow" in report else "workflow"
    title = "Smallest failing workflow (API format)" if key == "smallest_failing_workflow" else "Workflow (API format)"
    lines += ["", f"## {title}", "", "Prompt text, paths and ids removed.", "", "```json",
              json.dumps(report[key], indent=1), "```"]
    return "\n".join(lines) + "\n"


def report(doc: dict[str, Any], fmt: str = "md", machine: dict[str, Any] | None = None) -> str:
    """``md`` or ``json`` text of the report."""
    built = build_report(doc, machine)
    if fmt == "json":
        return json.dumps(built, indent=2)
    if fmt == "md":
        return render_report_md(built)
    raise ValueError(f"format must be md or json, not {fmt!r}")


def suggestions_md(suggestions: list[dict[str, Any]], when_none: str) -> list[str]:
    """The report's "Suggestions" section in Markdown (run reports and ``memprobe explain``)."""
    lines = ["", "## Suggestions", ""]
    for i, s in enumerate(suggestions, 1):
        lines += [f"{i}. **{s['title']}** ({s['severity']})", f"   - Why: {s['why']}", f"   - Try: {s['try']}"]
    return lines if suggestions else [*lines, when_none]
