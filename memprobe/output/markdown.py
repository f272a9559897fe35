"""Markdown to paste into an issue or a forum post: a run's report, a log's explanation, a
comparison of two runs. Every one starts from the verdict where there is one."""

from __future__ import annotations

import json
from typing import Any

from ..format import fmt_bytes, fmt_pair
from ..judging.residency import describe_model
from ..privacy import scrub_all, scrub_text
from ..vocabulary import metric_label
from .text import failure_words, loaded_words, machine_words, no_suggestion, node_words, versions_words

__all__ = ["report_md", "explain_md", "comparison_md", "suggestions_md", "verdict_md"]


def verdict_md(verdict: dict[str, Any] | None) -> list[str]:
    """The verdict's headline as the report's first lines."""
    if not verdict or not verdict.get("title"):
        return []
    lines = [f"**{verdict['title']}**"]
    if verdict.get("detail"):
        lines.append(f"{verdict['detail']}")
    return [*lines, ""]


def report_md(report: dict[str, Any]) -> str:
    """The report as Markdown, to paste into an issue or a forum post."""
    lines = ["# Memory Probe report", "", *verdict_md(report.get("verdict"))]
    run, error, system, versions = report["run"], report["error"], report["system"], report["versions"]
    lines.append(f"Outcome: **{run['status']}** after {run['duration_s'] or 0:.1f} s ({run['node_count']} nodes).")
    if error:
        lines += [
            "",
            "## Error",
            "",
            f"`{error['exception_type']}` at node {error['node_id']} ({error['class_type']}, stage "
            f"{error['stage']}), memory kind: **{error['kind']}**",
            "",
            "```text",
            str(error["message"] or "").strip(),
            "```",
        ]
    lines += ["", "## System", ""]
    gpus = (
        "; ".join(
            f"{g['name']} ({fmt_bytes(g['vram_total_bytes'])}, driver {g['driver_version'] or '?'})"
            for g in system["gpus"]
        )
        or f"none (ComfyUI runs on {system['compute_device'] or 'the CPU'})"
    )
    lines += [
        f"- GPU: {gpus}",
        f"- RAM: {fmt_bytes(system['ram_total_bytes'])}; commit limit "
        f"{fmt_bytes(system['commit_limit_bytes'])}; swap/pagefile {fmt_bytes(system['swap_total_bytes'])}; "
        f"the limit that ends ComfyUI: {system['memory_limit']['name']} "
        f"({fmt_bytes(system['memory_limit']['bytes'])})",
        f"- OS: {system['os']}; install: {system['install']}",
        f"- Versions: ComfyUI {versions['comfyui']}, frontend {versions['frontend']}, torch {versions['torch']}, "
        f"Python {versions['python']}, Memory Probe {report['memprobe_version']}",
        f"- Launch options: `{' '.join(report['launch_options']) or '(none)'}`",
    ]
    params = report["parameters"]
    shown = {k: v for k, v in params.items() if k != "decode"}
    if params.get("decode"):
        shown["decode"] = ", ".join(f"{k} {v}" for k, v in params["decode"].items() if k != "node_id")
    lines += ["", "## Workflow settings", ""] + [
        f"- {k}: {v if not isinstance(v, list) else ', '.join(map(str, v))}" for k, v in shown.items()
    ]
    memory = report["memory"]
    name = metric_label(memory["metric"])
    lines += [
        "",
        "## Peaks by stage",
        "",
        f"| stage | time | peak {name} | peak process RSS | peak commit |",
        "| --- | --- | --- | --- | --- |",
    ]
    for stage, s in memory["by_stage"].items():
        mark = " ✗" if s["failed"] else ""

        def peak(metric: str, text: str, s: dict[str, Any] = s) -> str:
            sampled = s["peaks"].get(metric) is not None and metric not in s.get("exact_peaks", ())
            return f"≥ {text}" if sampled else text

        lines.append(
            f"| {stage}{mark} | {s['time_s']:.2f} s "
            f"| {peak(memory['metric'], fmt_pair(s['peaks'].get(memory['metric']), memory['limit_bytes']))}"
            f" | {peak('process_rss_bytes', fmt_bytes(s['peaks'].get('process_rss_bytes')))}"
            f" | {peak('commit_bytes', fmt_bytes(s['peaks'].get('commit_bytes')))} |"
        )
    lines += [
        "",
        "≥: a sampled peak, the highest reading (a short spike between two readings can go higher); the "
        "others are exact, from the operating system's or torch's own peak counters.",
    ]
    models = report.get("models")
    if models:
        lines += [
            "",
            "## Models by stage",
            "",
            "What ComfyUI's model manager held when each stage ended, and what the stage changed.",
            "",
            "| stage | models held | changes |",
            "| --- | --- | --- |",
        ]
        for stage, entry in models["by_stage"].items():
            held = (
                "<br>".join(describe_model(m) for m in entry["models"])
                if entry["models"]
                else ("none" if entry["models"] == [] else "unknown")
            )
            changed = "<br>".join(f"node {c['node_id']}: {c['text']}" for c in entry["changes"]) or "—"
            lines.append(f"| {stage} | {held} | {changed} |")
        if models["partial_loads"]:
            lines += ["", "Partial loads (the rest of the model stayed in RAM because VRAM was short):", ""]
            lines += [
                f"- node {p['node_id']}: {p['name']}: {fmt_bytes(p['loaded_bytes'])} on {p['device'] or 'the GPU'}, "
                f"{fmt_bytes(p['offloaded_bytes'])} in RAM"
                for p in models["partial_loads"]
            ]
    if report.get("model_log"):
        lines += ["", "ComfyUI's model log lines:", "", "```text"]
        lines += [e["message"] for e in report["model_log"][:50]] + ["```"]
    if report["fallbacks"]:
        lines += ["", "## Silent out-of-memory events", ""]
        lines += [f"- {e['kind']} at node {e['node_id']}: {e['message']}" for e in report["fallbacks"]]
    lines += suggestions_md(report["suggestions"], "None: nothing in this run points to a memory limit.")
    key = "smallest_failing_workflow" if "smallest_failing_workflow" in report else "workflow"
    title = "Smallest failing workflow (API format)" if key == "smallest_failing_workflow" else "Workflow (API format)"
    lines += [
        "",
        f"## {title}",
        "",
        "Prompt text, paths and ids removed.",
        "",
        "```json",
        json.dumps(report[key], indent=1),
        "```",
    ]
    return "\n".join(lines) + "\n"


def suggestions_md(suggestions: list[dict[str, Any]], when_none: str) -> list[str]:
    """The report's "Suggestions" section in Markdown (run reports and ``memprobe explain``)."""
    lines = ["", "## Suggestions", ""]
    for i, s in enumerate(suggestions, 1):
        lines += [f"{i}. **{s['title']}** ({s['severity']})", f"   - Why: {s['why']}", f"   - Try: {s['try']}"]
    return lines if suggestions else [*lines, when_none]


def explain_md(doc: dict[str, Any]) -> str:
    """The shareable Markdown report (no prompts, no user names, no paths beyond file names)."""
    doc = scrub_all(doc)
    lines = [
        "# Memory Probe: explanation of a ComfyUI log",
        "",
        f"Read from ComfyUI's own log ({doc['log']['lines']} lines) by Memory Probe {doc['memprobe_version']}.",
        "",
        *verdict_md(doc.get("verdict")),
    ]
    failure = doc["failure"]
    lines += ["## First failure", ""]
    if failure is None:
        lines.append("None: no error in the log, and no sign that ComfyUI stopped mid-run.")
    else:
        lines += [f"**{failure_words(failure)}** (`{failure['kind']}`) — {node_words(failure)}", ""]
        if failure["message"]:
            lines += [
                "```text",
                (f"{failure['exception_type']}: " if failure["exception_type"] else "") + failure["message"],
                "```",
                "",
            ]
        if failure.get("stage_evidence"):
            lines.append(f"- Stage: {failure['stage_evidence']}")
        lines += [f"- Line {e['line']}: `{_md_code(e['text'])}`" for e in failure["evidence"][:6]]
        if doc["consequences"]:
            lines += ["", "Later errors (consequences of the first):", ""]
            lines += [
                f"- `{c['kind']}` {c['exception_type'] or ''}: {_md_code((c['message'] or '').splitlines()[0][:160] if c['message'] else '')}"
                f" — {node_words(c)}"
                for c in doc["consequences"]
            ]
    lines += [
        "",
        "## System",
        "",
        f"- Machine: {machine_words(doc)}",
        f"- Versions: {versions_words(doc)}",
        f"- Launch options: `{' '.join(doc['launch_args']) or '(not in the log)'}`",
    ]
    if doc["models"]:
        lines += ["", "## Models loaded", "", "| model | loaded | offloaded |", "| --- | --- | --- |"]
        lines += [
            f"| {m['name'] or '?'} | {loaded_words(m)} | {fmt_bytes(m['offloaded_bytes'])} |"
            for m in doc["models"][:24]
        ]
    if doc["fallbacks"]:
        lines += ["", "## ComfyUI's silent out-of-memory fallbacks", ""]
        lines += [
            f"- {fb['kind']} (line {fb['line']}{f', {n} times' if (n := fb.get('count', 1)) > 1 else ''})"
            for fb in doc["fallbacks"]
        ]
    lines += suggestions_md(doc["suggestions"], f"None. {no_suggestion(doc)}")
    lines += ["", "## What the log cannot tell", ""] + [f"- {u}" for u in doc["unknown"]]
    return "\n".join(lines) + "\n"


def _md_code(text: str) -> str:
    return scrub_text(text).replace("`", "'")[:200]


def _fmt(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, list):
        return ", ".join(map(str, value)) or "—"
    return str(value)


def _delta(value: int | None) -> str:
    if value is None:
        return ""
    return f" ({'+' if value >= 0 else '-'}{fmt_bytes(abs(value))})"


def comparison_md(cmp: dict[str, Any]) -> str:
    """The comparison as Markdown (what the CLI prints and the panel shows)."""
    metric_name = metric_label(cmp["metric"])
    lines = [f"# Run {cmp['a']['id']} vs {cmp['b']['id']}", ""]
    if not cmp["changes"]:
        lines.append("No difference in the workflow's settings, launch options or versions.")
    else:
        if not cmp["one_change"]:
            lines.append(f"**{len(cmp['changes'])} things changed at once** — the effect of each cannot be told apart.")
            lines.append("")
        lines += ["| changed | A | B |", "| --- | --- | --- |"]
        lines += [f"| {c['what']} | {_fmt(c['a'])} | {_fmt(c['b'])} |" for c in cmp["changes"]]
    model_change = next((c for c in cmp["changes"] if c.get("effect") is not None), None)
    if model_change is not None:
        lines += [
            "",
            "What the model change did to each memory:"
            if cmp["one_change"]
            else "Each memory, A and B (all the changes together):",
            "",
        ]
        lines += _memory_rows(model_change["effect"])
    lines += [
        "",
        f"| stage | peak {metric_name} A | peak {metric_name} B | time A | time B |",
        "| --- | --- | --- | --- | --- |",
    ]
    for s in cmp["stages"]:
        cells = {}
        for side in ("a", "b"):
            entry = s[side]
            if entry is None:
                cells[side] = ("cached", "cached") if s["cached"][side] else ("not run", "—")
            else:
                fail = " ✗" if entry["failed"] else ""
                cells[side] = (f"{fmt_bytes(s['peak_' + side])}{fail}", f"{entry['time_s']:.2f} s")
        lines.append(
            f"| {s['stage']} | {cells['a'][0]} | {cells['b'][0]}{_delta(s['peak_delta'])} | "
            f"{cells['a'][1]} | {cells['b'][1]} |"
        )
    oa, ob = cmp["outcome"]["a"], cmp["outcome"]["b"]

    def outcome(o: dict[str, Any]) -> str:
        text = o["status"] or "?"
        if o["failure_kind"]:
            text += f" ({o['failure_kind']} at node {o['failure_node']}, {o['failure_stage']})"
        return text

    lines += [
        "",
        f"Outcome: A {outcome(oa)} → B {outcome(ob)}.",
        f"Run peak {metric_name}: {fmt_bytes(cmp['peak']['a'])} → {fmt_bytes(cmp['peak']['b'])}"
        + (f" of {fmt_bytes(cmp['limit_bytes'])} {cmp.get('limit_name') or ''}".rstrip() if cmp["limit_bytes"] else "")
        + ".",
    ]
    if model_change is None and cmp.get("memory"):
        lines += ["", *_memory_rows(cmp["memory"])]
    return "\n".join(lines) + "\n"


def _memory_rows(effect: dict[str, dict[str, Any]]) -> list[str]:
    rows = ["| memory | A | B |", "| --- | --- | --- |"]
    for entry in effect.values():
        rows.append(f"| {entry['label']} | {fmt_bytes(entry['a'])} | {fmt_bytes(entry['b'])}{_delta(entry['delta'])} |")
    return rows
