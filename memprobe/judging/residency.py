"""Model residency: which model weights ComfyUI's model manager holds, how much of each sits on
the compute device and how much it left offloaded in RAM — and what each node changed.

ComfyUI loads a model *partially* when VRAM is short: the rest of its weights stay in system RAM
(then the pagefile/swap carries them). That is why a VRAM shortage shows up as RAM and commit
growth. The glue (``glue/models.py``) reads ComfyUI's ``LoadedModel`` objects into
:class:`ModelState`; everything here works on the plain documents they become.

A model document (``models`` of a node, a mark or a run), every size in bytes, ``None`` = unknown:

==================  ==============================================================================
``key``             identity of the weights in this process: two keys with one file = two copies
``name``            ``class (file)`` when Memory Probe saw which file the loader node read; else the class
``class``           ComfyUI's model class (``SDXL``, ``Flux``, ``SD1ClipModel``, ``AutoencoderKL``)
``kind``            ``diffusion_model``, ``text_encoder``, ``vae`` or ``other``
``device``          where the loaded part lives (``cuda:0``, ``cpu``, ``mps``)
``offload_device``  where the offloaded part lives (``cpu``: RAM)
``size_bytes``      all of the model's weights
``loaded_bytes``    on ``device``
``offloaded_bytes`` on ``offload_device`` (``size_bytes - loaded_bytes``)
``dtype``           weight dtype (``float16``, ``bfloat16``, ``float8_e4m3fn``, ...)
``dynamic``         ``True`` under dynamic VRAM (comfy-aimdo): weights stream to the GPU on demand
``pinned_bytes``    dynamic VRAM: RAM held in its pinned host buffers
``file``            the loader's model file name(s)
``loaded_by``       ``{node_id, class_type}`` of the node that produced the model
==================  ==============================================================================

A change (``model_changes`` of a node): the model's ``key``, ``name``, ``class``, ``kind``, ``file``,
``device``, ``size_bytes``, ``change`` (``loaded``, ``partially-loaded``, ``offloaded`` — part of it
moved back to RAM —, ``unloaded`` or ``moved``), ``loaded_bytes_before``, ``loaded_bytes`` and
``offloaded_bytes`` after.

>>> a = {"key": "1", "class": "SDXL", "name": "SDXL", "device": "cuda:0", "size_bytes": 100, "loaded_bytes": 60,
...      "offloaded_bytes": 40}
>>> [c["change"] for c in diff_models([], [a])], [c["change"] for c in diff_models([a], [])]
(['partially-loaded'], ['unloaded'])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..documents import ModelDoc, NodeDoc, RunDoc
from ..format import MIB, fmt_bytes

__all__ = [
    "ModelState",
    "diff_models",
    "same_residency",
    "describe_model",
    "describe_change",
    "offloaded_bytes",
    "stage_models",
    "duplicate_models",
    "model_label",
    "partial_loads",
    "run_models",
    "max_offloaded",
    "KINDS",
    "MIN_CHANGE_BYTES",
]

KINDS = ("diffusion_model", "text_encoder", "vae", "clip_vision", "other")
MIN_CHANGE_BYTES = MIB
"""A resident model whose loaded bytes moved by less than this did not change (dynamic VRAM
streams weights all the time)."""


@dataclass(frozen=True, slots=True)
class ModelState:
    """One model the model manager holds, as the glue read it."""

    key: str
    model_class: str | None
    name: str | None = None
    kind: str | None = None
    device: str | None = None
    offload_device: str | None = None
    size_bytes: int | None = None
    loaded_bytes: int | None = None
    offloaded_bytes: int | None = None
    dtype: str | None = None
    dynamic: bool | None = None
    pinned_bytes: int | None = None
    file: str | None = None
    loaded_by: dict[str, Any] | None = None

    def to_dict(self) -> ModelDoc:
        name = self.name or (f"{self.model_class} ({self.file})" if self.file else self.model_class)
        return {
            "key": self.key,
            "name": name,
            "class": self.model_class,
            "kind": self.kind,
            "device": self.device,
            "offload_device": self.offload_device,
            "size_bytes": self.size_bytes,
            "loaded_bytes": self.loaded_bytes,
            "offloaded_bytes": self.offloaded_bytes,
            "dtype": self.dtype,
            "dynamic": self.dynamic,
            "pinned_bytes": self.pinned_bytes,
            "file": self.file,
            "loaded_by": self.loaded_by,
        }


def _loaded(model: ModelDoc | None) -> int:
    return (model or {}).get("loaded_bytes") or 0


def _change(model: ModelDoc, change: str, before: ModelDoc | None) -> dict[str, Any]:
    gone = change == "unloaded"
    return {
        "key": model.get("key"),
        "name": model.get("name"),
        "class": model.get("class"),
        "kind": model.get("kind"),
        "file": model.get("file"),
        "device": model.get("device"),
        "size_bytes": model.get("size_bytes"),
        "change": change,
        "loaded_bytes_before": _loaded(before) if before is not None else 0,
        "loaded_bytes": 0 if gone else model.get("loaded_bytes"),
        "offloaded_bytes": None if gone else model.get("offloaded_bytes"),
    }


def diff_models(before: Sequence[ModelDoc] | None, after: Sequence[ModelDoc] | None) -> list[dict[str, Any]]:
    """What happened between two readings: each model that appeared (``loaded``, or
    ``partially-loaded`` when part of it stayed offloaded), grew, shrank (``offloaded``), moved to
    another device, or left the model manager (``unloaded``). Unknown readings give no changes."""
    if before is None or after is None or before is after:
        return []
    old = {m.get("key"): m for m in before}
    new = {m.get("key"): m for m in after}
    changes = []
    for key, model in new.items():
        previous = old.get(key)
        grew = _loaded(model) - _loaded(previous)
        if previous is not None and previous.get("device") != model.get("device"):
            kind = "moved"
        elif previous is None or grew >= MIN_CHANGE_BYTES:
            kind = "partially-loaded" if (model.get("offloaded_bytes") or 0) > 0 else "loaded"
        elif -grew >= MIN_CHANGE_BYTES:
            kind = "offloaded"
        else:
            continue
        changes.append(_change(model, kind, previous))
    changes += [_change(model, "unloaded", model) for key, model in old.items() if key not in new]
    return changes


def same_residency(a: Sequence[ModelDoc] | None, b: Sequence[ModelDoc] | None) -> bool:
    """Two readings that show the same models with the same bytes on the same devices."""
    if a is None or b is None:
        return a is b
    return not diff_models(a, b) and len(a) == len(b)


def offloaded_bytes(models: Iterable[ModelDoc] | None) -> int | None:
    """The weights the model manager left in RAM, summed; ``None`` when nothing is known."""
    if models is None:
        return None
    values = [m.get("offloaded_bytes") for m in models]
    known = [v for v in values if v is not None]
    if values and not known:
        return None
    return sum(known)


def model_label(model: ModelDoc | dict[str, Any]) -> str:
    """``SDXL (sd_xl_base_1.0.safetensors)``, or the class alone when the file is unknown."""
    cls, file = model.get("class"), model.get("file")
    if cls and file:
        return f"{cls} ({file})"
    return str(model.get("name") or cls or file or "a model")


def _on(device: str | None) -> str:
    if device is None:
        return "on its device"
    return "in RAM (cpu)" if device == "cpu" else f"on {device}"


def describe_model(model: ModelDoc | dict[str, Any]) -> str:
    """``SDXL (sd_xl_base.safetensors): 3.2 GiB on cuda:0, 1.6 GiB offloaded to RAM``."""
    loaded, offloaded, size = model.get("loaded_bytes"), model.get("offloaded_bytes"), model.get("size_bytes")
    text = f"{model_label(model)}: "
    if loaded is None:
        text += f"{fmt_bytes(size)}, where unknown"
    else:
        text += f"{fmt_bytes(loaded)} {_on(model.get('device'))}"
        if offloaded:
            where = "RAM" if model.get("offload_device") in (None, "cpu") else model.get("offload_device")
            text += f", {fmt_bytes(offloaded)} offloaded to {where}"
    if model.get("dynamic"):
        text += " (dynamic VRAM)"
    return text


def describe_change(change: dict[str, Any]) -> str:
    """``loaded SDXL (…) partially: 3.2 GiB on cuda:0, 1.6 GiB left in RAM`` and the like."""
    label, kind = model_label(change), change.get("change")
    loaded, offloaded = change.get("loaded_bytes"), change.get("offloaded_bytes")
    where = _on(change.get("device"))
    if kind == "loaded":
        return f"loaded {label}: {fmt_bytes(loaded)} {where}"
    if kind == "partially-loaded":
        return f"loaded {label} partially: {fmt_bytes(loaded)} {where}, {fmt_bytes(offloaded)} left in RAM"
    if kind == "offloaded":
        freed = (change.get("loaded_bytes_before") or 0) - (loaded or 0)
        return f"moved {fmt_bytes(freed)} of {label} off {change.get('device')} to RAM ({fmt_bytes(loaded)} stays)"
    if kind == "unloaded":
        return f"unloaded {label} ({fmt_bytes(change.get('loaded_bytes_before'))} were {where})"
    return f"moved {label} to {change.get('device')}"


def stage_models(doc: RunDoc) -> dict[str, dict[str, Any]]:
    """Per stage (in the order stages first ran): ``models`` resident when its last node ended and
    the ``changes`` its nodes caused (each with its ``node_id``)."""
    out: dict[str, dict[str, Any]] = {}
    for node in doc.get("nodes") or []:
        if node.get("status") == "cached":
            continue
        entry = out.setdefault(node.get("stage") or "other", {"models": None, "changes": []})
        if node.get("models") is not None:
            entry["models"] = node["models"]
        entry["changes"] += [{"node_id": node.get("node_id"), **c} for c in node.get("model_changes") or []]
    return out


def duplicate_models(models: Iterable[ModelDoc] | None) -> list[list[ModelDoc]]:
    """Groups of two or more distinct resident copies of the same file and kind."""
    groups: dict[tuple[str, Any], dict[Any, ModelDoc]] = {}
    for model in models or []:
        if model.get("file"):
            groups.setdefault((str(model["file"]), model.get("kind")), {})[model.get("key")] = model
    return [list(copies.values()) for copies in groups.values() if len(copies) > 1]


def partial_loads(doc: RunDoc) -> list[dict[str, Any]]:
    """Every time ComfyUI kept part of a model off the compute device because it did not fit: a
    node's ``partially-loaded``/``offloaded`` change on a GPU (from the model manager), or, where
    the run has no readings, its ``loaded partially`` log line (``node_id`` ``None`` when no node
    of the run was running, e.g. a run read from a log). Each: ``node_id``, ``name``,
    ``class``, ``device``, ``dtype``, ``size_bytes``, ``loaded_bytes``, ``offloaded_bytes``, ``usable_bytes``
    (the VRAM ComfyUI let the load use, where its log line says), ``dynamic`` (dynamic VRAM's own streaming, where
    the model manager says) and ``source`` (``models`` or ``log``), in run order."""
    out = []
    nodes: list[NodeDoc] = [n for n in doc.get("nodes") or [] if n.get("status") != "cached"]
    claimed = {n.get("node_id") for n in nodes}
    unclaimed: NodeDoc = {"models": None}  # last: log lines no node claims
    for node in [*nodes, unclaimed]:
        node_id = node.get("node_id")
        if node.get("models") is not None:
            current = {m.get("key"): m for m in node.get("models") or []}
            for change in node.get("model_changes") or []:
                if change.get("change") not in ("partially-loaded", "offloaded") or change.get("device") in (
                    None,
                    "cpu",
                ):
                    continue
                model: ModelDoc = current.get(change.get("key")) or {}
                out.append(
                    {
                        "node_id": node_id,
                        "name": model_label(change),
                        "class": change.get("class"),
                        "file": model.get("file"),
                        "device": change.get("device"),
                        "dtype": model.get("dtype"),
                        "size_bytes": change.get("size_bytes"),
                        "loaded_bytes": change.get("loaded_bytes"),
                        "offloaded_bytes": change.get("offloaded_bytes"),
                        "usable_bytes": None,
                        "dynamic": model.get("dynamic"),
                        "source": "models",
                    }
                )
            continue
        for event in doc.get("events") or []:
            data = event.get("data") or {}
            owner = event.get("node_id") if event.get("node_id") in claimed else None
            if owner == node_id and event.get("kind") == "model-partially-loaded":
                loaded, offloaded = data.get("loaded_bytes"), data.get("offloaded_bytes")
                out.append(
                    {
                        "node_id": node_id,
                        "name": data.get("model_class") or "a model",
                        "class": data.get("model_class"),
                        "file": None,
                        "device": None,
                        "dtype": None,
                        "size_bytes": loaded + offloaded if loaded is not None and offloaded is not None else None,
                        "loaded_bytes": loaded,
                        "offloaded_bytes": offloaded,
                        "usable_bytes": data.get("usable_bytes"),
                        "dynamic": None,
                        "source": "log",
                    }
                )
    return out


def _readings(doc: RunDoc) -> list[list[ModelDoc]]:
    readings = [n.get("models") for n in doc.get("nodes") or [] if n.get("status") != "cached"]
    return [r for r in [*readings, doc.get("models_end")] if r is not None]


def run_models(doc: RunDoc, files: Iterable[str] = ()) -> list[ModelDoc]:
    """The models a run held, each as last read; models from files the workflow does not load
    (``files``: its model file names, when known) are another workflow's leftovers and left out."""
    wanted = set(files)
    seen: dict[Any, ModelDoc] = {}
    for reading in _readings(doc):
        for model in reading:
            file = model.get("file")
            if file and wanted and not set(file.split(", ")) & wanted:
                continue
            seen[model.get("key")] = model
    return list(seen.values())


def max_offloaded(doc: RunDoc) -> int | None:
    """The most model weight the model manager kept offloaded at any reading of the run."""
    values = [offloaded_bytes(r) for r in _readings(doc)]
    known = [v for v in values if v is not None]
    return max(known) if known else None
