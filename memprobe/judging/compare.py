"""Compare two runs — typically the same workflow before and after one change — the experiment
log users are told to keep by hand: what changed, and stage by stage what that did."""

from __future__ import annotations

from typing import Any

from ..documents import ModelDoc, RunDoc
from ..format import fmt_bytes
from .residency import KINDS, max_offloaded, run_models
from .runfacts import compute_limit, run_peaks, stage_summary
from .workflow import workflow_parameters

__all__ = ["compare_runs", "memory_effect"]

_PARAMETERS = (
    "models",
    "seed",
    "width",
    "height",
    "batch_size",
    "length",
    "steps",
    "cfg",
    "sampler_name",
    "scheduler",
    "denoise",
)
_VERSIONS = ("comfyui_version", "frontend_version", "torch_version")


def _flags(doc: RunDoc) -> list[str]:
    """The launch options (flags and their values), without host/port noise."""
    argv = [str(a) for a in (doc.get("context") or {}).get("argv") or []]
    skip = {"--listen", "--port", "--disable-auto-launch"}
    out, i = [], 0
    while i < len(argv):
        if argv[i] in skip:
            i += (
                2 if argv[i] in ("--listen", "--port") and i + 1 < len(argv) and not argv[i + 1].startswith("--") else 1
            )
            continue
        out.append(argv[i])
        i += 1
    return out


def _decoder(decode: dict[str, Any]) -> str | None:
    if not decode:
        return None
    settings = ", ".join(f"{k} {v}" for k, v in decode.items() if k not in ("node_id", "class_type"))
    return f"{decode.get('class_type')} ({settings})" if settings else decode.get("class_type")


def _cached_stages(doc: RunDoc) -> set[str]:
    return {n.get("stage") or "other" for n in doc.get("nodes") or [] if n.get("status") == "cached"}


def _outcome(doc: RunDoc) -> dict[str, Any]:
    failure = doc.get("failure") or {}
    return {
        "status": doc.get("status"),
        "failure_kind": failure.get("kind"),
        "failure_node": failure.get("node_id"),
        "failure_stage": failure.get("stage"),
        "duration_s": doc.get("duration_s"),
    }


_MEMORIES = (
    ("vram", "peak VRAM", ("gpu0_used_bytes",)),
    ("comfyui_ram", "peak ComfyUI RAM", ("process_private_bytes", "process_rss_bytes")),
    ("commit", "peak commit", ("commit_bytes",)),
)


def memory_effect(a: RunDoc, b: RunDoc) -> dict[str, dict[str, Any]]:
    """Per memory, the two runs' peaks and their difference (B - A), and the most model weight
    ComfyUI kept offloaded in RAM: ``{vram, comfyui_ram, commit, offloaded: {label, a, b, delta}}``."""
    peaks_a, peaks_b = run_peaks(a), run_peaks(b)
    out = {}
    for name, label, metrics in _MEMORIES:
        metric = next((m for m in metrics if m in peaks_a or m in peaks_b), None)
        if metric is not None:
            out[name] = _pair(label, peaks_a.get(metric), peaks_b.get(metric))
    offloaded_a, offloaded_b = max_offloaded(a), max_offloaded(b)
    if offloaded_a or offloaded_b:
        out["offloaded"] = _pair("most model weight offloaded to RAM", offloaded_a, offloaded_b)
    return out


def _pair(label: str, a: int | None, b: int | None) -> dict[str, Any]:
    return {"label": label, "a": a, "b": b, "delta": b - a if a is not None and b is not None else None}


def _model_text(model: ModelDoc) -> str:
    text = f"{model.get('class')} {model.get('dtype') or '?'} {fmt_bytes(model.get('size_bytes'))}"
    return text + (f" ({model['file']})" if model.get("file") else "")


def _model_change(a: RunDoc, b: RunDoc, pa: dict[str, Any], pb: dict[str, Any]) -> dict[str, Any] | None:
    """The models the two runs held, compared kind by kind (class, file, precision, size): one
    change, whatever the number of models that differ."""
    ma, mb = run_models(a, pa.get("models") or ()), run_models(b, pb.get("models") or ())
    if not ma or not mb:
        return None
    kinds = [k for k in KINDS if any(m.get("kind") == k for m in ma + mb)]
    kinds += sorted({str(m.get("kind")) for m in ma + mb} - set(kinds))
    differ = []
    for kind in kinds:
        side_a = sorted(_model_text(m) for m in ma if str(m.get("kind")) == kind)
        side_b = sorted(_model_text(m) for m in mb if str(m.get("kind")) == kind)
        if side_a != side_b:
            differ.append({"kind": kind, "a": side_a, "b": side_b})
    if not differ:
        return None
    return {
        "what": "models",
        "a": "; ".join(x for d in differ for x in d["a"]) or None,
        "b": "; ".join(x for d in differ for x in d["b"]) or None,
        "models": differ,
        "effect": memory_effect(a, b),
    }


def compare_runs(a: RunDoc, b: RunDoc) -> dict[str, Any]:
    """``{a, b, metric, changes, stages, outcome, memory}``: every difference in what the two runs
    did (a different model, or the same model in another precision, is one change that carries
    its ``effect`` on each memory), per stage the peak of the memory ComfyUI computed on, time
    and the other peaks, and per memory the two runs' peaks."""
    pa, pb = workflow_parameters(a.get("prompt")), workflow_parameters(b.get("prompt"))
    changes: list[dict[str, Any]] = []
    model_change = _model_change(a, b, pa, pb)
    if model_change is not None:
        changes.append(model_change)
    for key in _PARAMETERS:
        if pa.get(key) != pb.get(key) and not (key == "models" and model_change is not None):
            changes.append({"what": key, "a": pa.get(key), "b": pb.get(key)})
    da, db = pa.get("decode") or {}, pb.get("decode") or {}
    if da.get("class_type") != db.get("class_type"):  # a swapped decoder is one change, settings included
        changes.append({"what": "decode node", "a": _decoder(da), "b": _decoder(db)})
    else:
        for key in sorted((set(da) | set(db)) - {"node_id", "class_type"}):
            if da.get(key) != db.get(key):
                changes.append({"what": f"decode {key}", "a": da.get(key), "b": db.get(key)})
    fa, fb = _flags(a), _flags(b)
    if fa != fb:
        changes.append({"what": "launch options", "a": " ".join(fa), "b": " ".join(fb)})
    ca, cb = a.get("context") or {}, b.get("context") or {}
    for key in _VERSIONS:
        if ca.get(key) != cb.get(key):
            changes.append({"what": key.replace("_", " "), "a": ca.get(key), "b": cb.get(key)})

    bound = compute_limit(a)
    metric = bound.metric
    sa, sb = stage_summary(a), stage_summary(b)
    cached_a, cached_b = _cached_stages(a) - set(sa), _cached_stages(b) - set(sb)
    stages = []
    for stage in list(sa) + [s for s in sb if s not in sa] + sorted((cached_a | cached_b) - set(sa) - set(sb)):
        ea, eb = sa.get(stage), sb.get(stage)
        peak_a = (ea or {}).get("peaks", {}).get(metric)
        peak_b = (eb or {}).get("peaks", {}).get(metric)
        stages.append(
            {
                "stage": stage,
                "a": ea,
                "b": eb,
                "peak_a": peak_a,
                "peak_b": peak_b,
                "peak_delta": peak_b - peak_a if peak_a is not None and peak_b is not None else None,
                "time_delta_s": round(eb["time_s"] - ea["time_s"], 4) if ea and eb else None,
                "cached": {"a": stage in cached_a, "b": stage in cached_b},
            }
        )
    return {
        "a": {"id": a.get("id"), "started_at": a.get("started_at"), "parameters": pa},
        "b": {"id": b.get("id"), "started_at": b.get("started_at"), "parameters": pb},
        "metric": metric,
        "limit_bytes": bound.limit_bytes,
        "limit_name": bound.name,
        "changes": changes,
        "one_change": len(changes) == 1,
        "stages": stages,
        "peak": {"a": run_peaks(a).get(metric), "b": run_peaks(b).get(metric)},
        "outcome": {"a": _outcome(a), "b": _outcome(b)},
        "memory": memory_effect(a, b),
    }
