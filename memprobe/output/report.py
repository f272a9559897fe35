"""The shareable report of one run: what a good bug report needs — the exact error,
GPU and driver, install type, versions, launch options, peaks by stage, the first failure, the
suggestions and the smallest failing workflow — with prompts, paths and ids removed."""

from __future__ import annotations

import json
from typing import Any, cast

from .. import __version__
from ..documents import MachineDoc, ModelDoc, RunDoc
from ..judging.advice import advise
from ..judging.facts import RunFacts
from ..judging.residency import describe_change, partial_loads, stage_models
from ..judging.runfacts import compute_limit, run_peaks, stage_summary, system_limit
from ..judging.verdict import judge
from ..judging.workflow import upstream, workflow_parameters
from ..privacy import sanitize_prompt, scrub_all
from .markdown import report_md

__all__ = ["build_report", "report"]


def build_report(doc: RunDoc, machine: MachineDoc | None = None) -> dict[str, Any]:
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
    facts = RunFacts.from_run(doc, machine)
    suggestions = advise(facts)
    verdict = judge(facts, suggestions)
    report = {
        "memprobe_version": __version__,
        "run": {
            "status": doc.get("status"),
            "started_at": doc.get("started_at"),
            "duration_s": doc.get("duration_s"),
            "node_count": len(doc.get("nodes") or []),
        },
        "error": {
            "exception_type": (failure or {}).get("exception_type") or error.get("exception_type"),
            "message": (failure or {}).get("message") or error.get("exception_message"),
            "node_id": failing_node,
            "class_type": (failure or {}).get("class_type") or error.get("node_type"),
            "stage": (failure or {}).get("stage"),
            "kind": (failure or {}).get("kind"),
        }
        if failure or error
        else None,
        "system": {
            "os": context.get("os"),
            "install": (context.get("install") or {}).get("type"),
            "compute_device": context.get("compute_device"),
            "gpus": [
                {
                    "name": g.get("name"),
                    "driver_version": g.get("driver_version"),
                    "vram_total_bytes": g.get("vram_total_bytes"),
                }
                for g in context.get("gpus") or []
            ],
            "ram_total_bytes": context.get("ram_total_bytes"),
            "commit_limit_bytes": context.get("commit_limit_bytes"),
            "swap_total_bytes": context.get("swap_total_bytes"),
            "memory_limit": {
                "name": system_bound.name,
                "bytes": system_bound.limit_bytes,
                "enforced": system_bound.enforced,
            },
        },
        "versions": {k: context.get(f"{k}_version") for k in ("comfyui", "frontend", "torch", "python")},
        "launch_options": context.get("argv") or [],
        "parameters": params,
        "memory": {
            "metric": metric,
            "limit_bytes": compute.limit_bytes,
            "limit_name": compute.name,
            "run_peaks": {k: v for k, v in peaks.items() if not k.endswith(("total_bytes", "limit_bytes"))},
            "by_stage": {
                stage: {
                    "time_s": s["time_s"],
                    "peaks": s["peaks"],
                    "exact_peaks": sorted(s["exact"]),
                    "failed": s["failed"],
                }
                for stage, s in stage_summary(doc).items()
            },
        },
        "models": _models(doc),
        "fallbacks": [
            {k: e.get(k) for k in ("kind", "node_id", "message")}
            for e in doc.get("events") or []
            if not str(e.get("kind")).startswith("model-")
        ],
        "model_log": [
            {k: e.get(k) for k in ("kind", "node_id", "message")}
            for e in doc.get("events") or []
            if str(e.get("kind")).startswith("model-")
        ],
        "verdict": verdict,
        "suggestions": [s.to_dict() for s in suggestions],
        "smallest_failing_workflow" if failing_node else "workflow": sanitize_prompt(smallest),
    }
    return cast(dict[str, Any], scrub_all(report))


_MODEL_KEYS = (
    "name",
    "class",
    "kind",
    "file",
    "device",
    "size_bytes",
    "loaded_bytes",
    "offloaded_bytes",
    "dtype",
    "dynamic",
)


def _models(doc: RunDoc) -> dict[str, Any] | None:
    """The per-stage model picture: what ComfyUI's model manager held at the end of each stage,
    what each stage changed, and the partial loads; ``None`` when the run has no readings."""
    stages = stage_models(doc)
    if doc.get("models_end") is None and all(s["models"] is None for s in stages.values()):
        return None

    def brief(models: list[ModelDoc] | None) -> list[dict[str, Any]] | None:
        return None if models is None else [{k: m.get(k) for k in _MODEL_KEYS} for m in models]

    return {
        "by_stage": {
            stage: {
                "models": brief(s["models"]),
                "changes": [
                    {"node_id": c["node_id"], "change": c["change"], "name": c["name"], "text": describe_change(c)}
                    for c in s["changes"]
                ],
            }
            for stage, s in stages.items()
        },
        "at_end": brief(doc.get("models_end")),
        "partial_loads": partial_loads(doc),
    }


def report(doc: RunDoc, fmt: str = "md", machine: MachineDoc | None = None) -> str:
    """``md`` or ``json`` text of the report."""
    built = build_report(doc, machine)
    if fmt == "json":
        return json.dumps(built, indent=2)
    if fmt == "md":
        return report_md(built)
    raise ValueError(f"format must be md or json, not {fmt!r}")
