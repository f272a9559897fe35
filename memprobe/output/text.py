"""Text for a terminal: what ``memprobe doctor`` and ``memprobe explain`` print. The words a log's
explanation shares with its Markdown report live here too."""

from __future__ import annotations

from typing import Any

from ..format import fmt_bytes, fmt_pair
from ..judging.doctor import Finding
from ..vocabulary import SEVERITY_MARKS, kind_of

__all__ = [
    "doctor_text",
    "explain_text",
    "kind_words",
    "failure_words",
    "node_words",
    "machine_words",
    "versions_words",
    "loaded_words",
    "no_suggestion",
]


def doctor_text(machine: dict[str, Any], findings: list[Finding]) -> str:
    """The readable report ``memprobe doctor`` prints."""
    lines = ["Memory Probe doctor", ""]
    p = machine.get("platform") or {}
    lines.append(f"System   {p.get('system')} {p.get('release')} ({p.get('machine')}), Python {p.get('python')}")
    for g in machine.get("gpus") or []:
        driver = f", driver {g['driver_version']}" if g.get("driver_version") else ""
        shared = f", shared {fmt_bytes(g['shared_used_bytes'])}" if g.get("shared_used_bytes") is not None else ""
        lines.append(
            f"GPU {g['index']}    {g.get('name')} [{g['backend']}{driver}]: "
            f"VRAM {fmt_pair(g.get('vram_used_bytes'), g.get('vram_total_bytes'))}{shared}"
        )
    if not machine.get("gpus"):
        lines.append("GPU      none found")
    m = machine["memory"]
    used = (
        m["ram_total_bytes"] - m["ram_available_bytes"]
        if m.get("ram_total_bytes") and m.get("ram_available_bytes") is not None
        else None
    )
    lines.append(f"RAM      {fmt_pair(used, m.get('ram_total_bytes'))} in use")
    commit = f"Commit   {fmt_pair(m.get('commit_bytes'), m.get('commit_limit_bytes'))}"
    if m.get("commit_peak_bytes") is not None:
        commit += f", peak {fmt_bytes(m['commit_peak_bytes'])}"
    if m.get("overcommit_mode") is not None:
        commit += (
            f" (overcommit mode {m['overcommit_mode']}: {'enforced' if m['overcommit_mode'] == 2 else 'not enforced'})"
        )
    lines.append(commit)
    if m.get("limit_name"):
        how = "the limit the OS enforces on system memory" if m.get("limit_enforced") else "not enforced"
        lines.append(
            f"Limit    {m['limit_name']}: {fmt_pair(m.get('limit_used_bytes'), m.get('limit_bytes'))} in use ({how})"
        )
    cgroup = machine.get("cgroup") or {}
    if cgroup:
        lines.append(
            f"Cgroup   v{cgroup.get('version')} {cgroup.get('path')}: limit "
            f"{fmt_bytes(cgroup.get('limit_bytes')) if cgroup.get('limit_bytes') else 'none'}, in use "
            f"{fmt_bytes(cgroup.get('used_bytes'))}, OOM kills {cgroup.get('oom_kills', 'n/a')}"
        )
    swap = machine.get("swap") or {}
    areas = swap.get("areas") or []
    name = "Pagefile" if swap.get("source") == "registry" else "Swap    "
    lines.append(f"{name} {fmt_pair(m.get('swap_used_bytes'), m.get('swap_total_bytes'))} ({swap.get('source')})")
    for a in areas:
        if a.get("kind") == "pagefile":
            size = (
                "system managed"
                if a.get("system_managed")
                else (f"{fmt_bytes(a.get('initial_bytes'))} initial, {fmt_bytes(a.get('maximum_bytes'))} maximum")
            )
        else:
            size = f"{fmt_bytes(a.get('size_bytes'))}, {fmt_bytes(a.get('used_bytes'))} used"
        vol = a.get("volume") or {}
        free = f"; drive {fmt_bytes(vol.get('free_bytes'))} free" if vol else ""
        lines.append(f"         {a['path']} ({a.get('kind')}): {size}{free}")
    for d in machine.get("disks") or []:
        lines.append(
            f"Disk     {d['role']}: {d['path']}: {fmt_bytes(d.get('free_bytes'))} free of "
            f"{fmt_bytes(d.get('total_bytes'))}"
        )
    unreadable = machine.get("unreadable") or []
    if unreadable:
        lines += ["", "Could not read"]
        lines += [f"   {u.get('label')} ({u.get('value')}): {u.get('reason')}" for u in unreadable]
    lines += ["", "Findings"]
    for f in findings:
        lines.append(f"{SEVERITY_MARKS[f.severity]} {f.title}")
        lines.append(f"   read: {f.evidence}")
        lines.append(f"   do:   {f.action}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------- a log's explanation
def kind_words(kind: str | None) -> str:
    """What ran out, in a sentence: ``GPU memory (VRAM) ran out``."""
    return kind_of(kind).ran_out if kind else "no failure"


def failure_words(failure: dict[str, Any]) -> str:
    """What failed, in a sentence; a failure whose error the log cut away is not called "not memory"."""
    if failure["kind"] == "other" and not failure.get("message") and not failure.get("exception_type"):
        return "an error the log does not state (cut before it)"
    return kind_words(failure["kind"])


def node_words(failure: dict[str, Any]) -> str:
    node = failure["node"]
    parts = []
    if node["class_type"]:
        parts.append(node["class_type"] + (f" (node {node['id']})" if node["id"] else ""))
    elif node["pack"]:
        parts.append(f"a node of custom_nodes/{node['pack']}")
    if failure["stage"]:
        parts.append(f"stage {failure['stage']}")
    return ", ".join(parts) if parts else "node and stage not in the log"


def machine_words(doc: dict[str, Any]) -> str:
    m = doc["machine"]
    parts = []
    if m["gpu_name"] or m["vram_total_bytes"]:
        parts.append(f"{m['gpu_name'] or 'GPU'} ({fmt_bytes(m['vram_total_bytes'])} VRAM)")
    if m["device"] and not m["gpu_name"]:
        parts.append(f"device {m['device']}")
    if m["ram_total_bytes"]:
        parts.append(f"{fmt_bytes(m['ram_total_bytes'])} RAM")
    if m["ram_limit_bytes"]:
        parts.append(f"RAM limited by cgroup to {fmt_bytes(m['ram_limit_bytes'])}")
    parts += [p for p in (m["os"], m["install"] if m["install"] != "unknown" else None) if p]
    return ", ".join(parts) or "not in the log"


def versions_words(doc: dict[str, Any]) -> str:
    names = (("comfyui", "ComfyUI"), ("frontend", "frontend"), ("torch", "torch"), ("python", "Python"))
    return (
        ", ".join(f"{label} {doc['versions'][key]}" for key, label in names if doc["versions"].get(key))
        or "not in the log"
    )


def loaded_words(model: dict[str, Any]) -> str:
    """What a model line says was loaded; dynamic VRAM stages weights instead of loading them."""
    if model["loaded_bytes"] is None and model.get("staged_bytes"):
        return f"dynamic VRAM, {fmt_bytes(model['staged_bytes'])} staged"
    return fmt_bytes(model["loaded_bytes"])


# ---------------------------------------------------------------------------- rendering


def no_suggestion(doc: dict[str, Any]) -> str:
    failure = doc["failure"]
    if failure is not None and (kind_of(failure["kind"]).ran_short or failure["kind"] == "abrupt"):
        return (
            "The log does not show enough for Memory Probe's rules (which node, which stage): see what it "
            "cannot tell below."
        )
    return "Nothing in this log points to a memory limit."


def explain_text(doc: dict[str, Any]) -> str:
    """The explanation for a terminal."""
    lines = [f"Memory Probe: explanation of a ComfyUI log ({doc['log']['lines']} lines)", ""]
    verdict = doc.get("verdict") or {}
    if doc["failure"] is not None and verdict.get("title"):
        lines += [f"Verdict: {verdict['title']}", ""]
    failure = doc["failure"]
    if failure is None:
        lines.append(doc["no_failure"])
    else:
        lines.append(f"First failure: {failure_words(failure)} [{failure['kind']}] — {node_words(failure)}")
        head = failure["exception_type"] or ""
        head += ": " if head and failure["message"] else ""
        lines += ["  " + line for line in (head + (failure["message"] or "")).splitlines()[:6]]
        if failure.get("stage_evidence"):
            lines.append(f"  stage: {failure['stage_evidence']}")
        for e in failure["evidence"][:4]:
            lines.append(f"  line {e['line']}: {e['text'][:160]}")
        for c in doc["consequences"]:
            what = " ".join(
                p
                for p in (c["exception_type"], (c["message"] or "").splitlines()[0][:120] if c["message"] else "")
                if p
            )
            lines.append(f"Then (a consequence): [{c['kind']}] {what} — {node_words(c)}")
    lines += ["", f"Machine: {machine_words(doc)}", f"Versions: {versions_words(doc)}"]
    if doc["launch_args"]:
        lines.append(f"Launch options: {' '.join(doc['launch_args'])}")
    if doc["models"]:
        lines.append(
            "Models loaded in that prompt: "
            + ", ".join(
                f"{m['name'] or '?'} ({loaded_words(m)}"
                + (f", {fmt_bytes(m['offloaded_bytes'])} offloaded" if m["offloaded_bytes"] else "")
                + ")"
                for m in doc["models"][:12]
            )
        )
    for fb in doc["fallbacks"]:
        times = f", {fb['count']} times" if fb.get("count", 1) > 1 else ""
        lines.append(f"ComfyUI's silent fallback ({fb['kind']}{times}), line {fb['line']}: {fb['text'][:140]}")
    lines += ["", "Try first:" if doc["suggestions"] else f"Suggestions: none. {no_suggestion(doc)}"]
    for i, s in enumerate(doc["suggestions"], 1):
        lines += [f"{i}. {s['title']} ({s['severity']})", f"   Why: {s['why']}", f"   Try: {s['try']}"]
    lines += ["", "What the log cannot tell:"] + [f"- {u}" for u in doc["unknown"]]
    return "\n".join(lines) + "\n"


def forecast_text(doc: dict[str, Any], name: str = "the workflow") -> str:
    """``memprobe forecast``'s text: the verdict, each stage, what was learned, the changes to try."""
    machine = doc.get("machine") or {}
    gpu = machine.get("device") != "cpu"
    memory = "VRAM" if gpu else "RAM"
    where = f"{machine.get('device')} with {fmt_bytes(machine.get('vram_total_bytes'))} VRAM" if gpu else "the CPU"
    where += f", {fmt_bytes(machine.get('ram_total_bytes'))} RAM, {machine.get('os')}"
    if not machine.get("measured", True):
        where += " (what-if)"
    lines = [f"Memory Probe: forecast of {name} on {where}", ""]
    peak = doc.get("peak") or {}
    verdict = doc.get("verdict") or "fits"
    because = doc.get("unknown_because")
    if verdict == "unknown" and because:  # what was counted fits: not a verdict while part of it is not counted
        lines.append(f"Verdict: unknown — {because}")
        if any(n.get("uncounted") for n in doc.get("nodes") or []):
            lines.append("Give each missing file's size with --model NAME=SIZE, or forecast where they are.")
        if peak:
            lines.append(
                f"What is counted: peak {fmt_bytes(peak.get('bytes'))} of {fmt_bytes(peak.get('limit_bytes'))} "
                f"{peak.get('limit_name')} at {peak.get('class_type')} (node {peak.get('node_id')}, {peak.get('stage')})"
            )
    elif peak:
        lines.append(
            f"Verdict: {verdict} — peak {fmt_bytes(peak.get('bytes'))} of {fmt_bytes(peak.get('limit_bytes'))} "
            f"{peak.get('limit_name')} at {peak.get('class_type')} (node {peak.get('node_id')}, {peak.get('stage')})"
        )
    else:
        lines.append(f"Verdict: {verdict}")
    lines += ["", f"{'stage':<13} {'peak ' + memory:>12} {'system':>10} {'offloaded':>10}  verdict"]
    for s in doc.get("stages") or []:
        offloaded = fmt_bytes(s.get("offloaded_bytes")) if s.get("offloaded_bytes") else "—"
        lines.append(
            f"{s['stage']:<13} {fmt_bytes(s.get('peak_bytes')):>12} {fmt_bytes(s.get('system_bytes')):>10} "
            f"{offloaded:>10}  {s.get('verdict')}"
        )
    learned = doc.get("learned") or []
    lines.append("")
    if learned:
        stages = ", ".join(sorted({entry["stage"] for entry in learned}))
        lines.append(f"Learned on this machine for {doc.get('family')}: {stages}; the rest is ComfyUI's own estimate.")
    else:
        lines.append("Not learned on this machine yet: ComfyUI's own estimates (the first traced run teaches them).")
    suggestions = doc.get("suggestions") or []
    if suggestions:
        lines += ["", "Try first:"]
        for i, s in enumerate(suggestions[:4], 1):
            mark = SEVERITY_MARKS.get(s.get("severity"), "")
            lines.append(f"{i}. {s['title']} ({s.get('severity')}){' ' + mark if mark else ''}")
            lines.append(f"   Why: {s['why']}")
            lines.append(f"   Try: {s['try']}")
    unknown = doc.get("unknown") or []
    if unknown:
        lines += ["", "Not counted:"] + [f"- {u}" for u in unknown]
    return "\n".join(lines) + "\n"
