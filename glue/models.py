"""Reading ComfyUI's model manager: ``comfy.model_management.current_loaded_models`` — one
``LoadedModel`` per model it holds — into :class:`~memprobe.judging.residency.ModelState` values.

What is read, per ``LoadedModel`` and its ``ModelPatcher`` (``lm.model``):

* ``model_size()`` (the patcher caches it in ``size``), ``loaded_size()``: bytes on the load device;
  the rest is offloaded. Under current ComfyUI's dynamic VRAM (``ModelPatcherDynamic``,
  ``is_dynamic()``), ``loaded_size()`` includes comfy-aimdo's VRAM buffer and ``loaded_ram_size()``
  gives the pinned host RAM; 0.3.64 has neither method, so those read as unknown.
* ``lm.device`` / ``load_device``, ``offload_device``; ``model_dtype()`` or the dtype holding most bytes;
  the class of the weights module (``patcher.model``), whose identity is the model's ``key``.

Every attribute is optional: a missing or failing one reads as ``None``, never an exception.
Reading never loads, moves or sizes weights (a patcher whose size is not cached yet is sized
once, as ComfyUI itself would). It runs on ComfyUI's worker thread, the thread that changes the
list, around every node: keep it lean (``benchmarks/bench_residency.py`` measures it).

:meth:`ModelReader.note_outputs` remembers which node produced which weights (and from which
model file), so a model reads as ``SDXL (sd_xl_base_1.0.safetensors)`` loaded by node 4.
"""

from __future__ import annotations

import sys
import weakref
from collections.abc import Callable
from typing import Any

from ..memprobe.judging.residency import ModelState

__all__ = ["ModelReader"]

MAX_MODELS = 64
_VAE_HINTS = ("VAE", "Autoencod", "TAESD")


def _call(obj: Any, name: str) -> Any:
    """``obj.name()``, or ``None`` when it is missing or fails."""
    method = getattr(obj, name, None)
    if not callable(method):
        return None
    try:
        return method()
    except Exception:  # another ComfyUI version, a half-built patcher: unknown, not an error
        return None


def _int(value: Any) -> int | None:
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError, OverflowError):
        return None


def _dtype_name(dtype: Any) -> str | None:
    return str(dtype).removeprefix("torch.") if dtype is not None else None


def _device(value: Any) -> str | None:
    return str(value) if value is not None else None


def _patcher_of(item: Any) -> tuple[Any, str | None]:
    """The ``ModelPatcher`` inside a node's output value, and what kind of model it holds."""
    if callable(getattr(item, "model_size", None)) and getattr(item, "model", None) is not None:
        return item, "diffusion_model" if hasattr(item.model, "diffusion_model") else None
    patcher = getattr(item, "patcher", None)
    if patcher is not None and callable(getattr(patcher, "model_size", None)):
        return patcher, {"CLIP": "text_encoder", "VAE": "vae", "ClipVisionModel": "clip_vision"}.get(
            type(item).__name__
        )
    return None, None


class ModelReader:
    """Reads the model manager's state; remembers per weights module what it learnt once
    (dtype, which node produced it, from which file)."""

    def __init__(self, model_management: Callable[[], Any] | None = None) -> None:
        self._model_management = model_management or (lambda: sys.modules.get("comfy.model_management"))
        self._known: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()

    def read(self) -> list[ModelState] | None:
        """Every model the model manager holds, most recently loaded first; ``None`` when this
        process has no ComfyUI model manager (or one without ``current_loaded_models``)."""
        loaded = getattr(self._model_management(), "current_loaded_models", None)
        if not isinstance(loaded, list):
            return None
        states = []
        for loaded_model in loaded[:MAX_MODELS]:  # a copy: ComfyUI mutates the list itself
            state = self._state(loaded_model)
            if state is not None:
                states.append(state)
        return states

    def _state(self, loaded_model: Any) -> ModelState | None:
        try:
            patcher = loaded_model.model  # a weakref behind a property: None once it is gone
            weights = getattr(patcher, "model", None)
        except Exception:  # a dead or foreign entry
            return None
        if weights is None:
            return None
        known = self._memo(weights)
        size = getattr(patcher, "size", None)
        size = _int(size) if isinstance(size, int) and size > 0 else _int(_call(patcher, "model_size"))
        loaded = _int(_call(patcher, "loaded_size"))
        if "dynamic" not in known:  # fixed for a model's patcher class: read once
            dynamic = _call(patcher, "is_dynamic")
            known["dynamic"] = dynamic if isinstance(dynamic, bool) else None
            known["dtype"] = _dtype_name(_call(patcher, "model_dtype")) or _main_dtype(weights)
            known.setdefault("kind", _kind(patcher, weights))
        device = getattr(loaded_model, "device", None) or getattr(patcher, "load_device", None)
        pinned = _int(_call(patcher, "loaded_ram_size")) if known["dynamic"] is True else None
        signature = (size, loaded, device, pinned, known.get("file"), known.get("kind"))
        last = known.get("state")
        if last is not None and known.get("signature") == signature:
            return last  # unchanged since the last reading: the same (immutable) state
        state = ModelState(
            key=f"{id(weights):x}",
            model_class=type(weights).__name__,
            kind=known["kind"],
            device=_device(device),
            offload_device=_device(getattr(patcher, "offload_device", None)),
            size_bytes=size,
            loaded_bytes=loaded,
            offloaded_bytes=max(0, size - loaded) if size is not None and loaded is not None else None,
            dtype=known["dtype"],
            dynamic=known["dynamic"],
            pinned_bytes=pinned,
            file=known.get("file"),
            loaded_by=known.get("loaded_by"),
        )
        known["state"], known["signature"] = state, signature
        return state

    def _memo(self, weights: Any) -> dict[str, Any]:
        try:
            known = self._known.get(weights)
            if known is None:
                known = self._known[weights] = {}
            return known
        except TypeError:  # not weak-referenceable: nothing is remembered
            return {}

    def note_outputs(self, outputs: Any, loaded_by: dict[str, Any], files: Callable[[], list[str]]) -> None:
        """Remember the models in a node's outputs (``get_output_data``'s first value: one list
        per output slot) as produced by ``loaded_by``, from ``files()``. The first producer wins:
        a LoRA loader's clone shares the checkpoint loader's weights."""
        if not isinstance(outputs, list | tuple):
            return
        for slot in outputs[:16]:
            for item in (slot if isinstance(slot, list | tuple) else (slot,))[:8]:
                patcher, kind = _patcher_of(item)
                weights = getattr(patcher, "model", None) if patcher is not None else None
                if weights is None:
                    continue
                known = self._memo(weights)
                if "loaded_by" in known:
                    continue
                names = files()
                known.update(loaded_by=dict(loaded_by), file=", ".join(names) if names else None)
                if kind is not None:
                    known["kind"] = kind


def _main_dtype(weights: Any, limit: int = 20_000) -> str | None:
    """The dtype that holds most of the weights' bytes (a text encoder keeps a few float32
    scalars next to its float16 matrices). Read once per model: it walks the parameters."""
    by_dtype: dict[Any, int] = {}
    try:
        for i, param in enumerate(weights.parameters()):
            if i >= limit:
                break
            by_dtype[param.dtype] = by_dtype.get(param.dtype, 0) + param.nelement() * param.element_size()
    except Exception:  # no parameters, or not a torch module
        pass
    return _dtype_name(max(by_dtype, key=by_dtype.__getitem__)) if by_dtype else None


def _kind(patcher: Any, weights: Any) -> str:
    if getattr(patcher, "is_clip", False) is True:
        return "text_encoder"
    if hasattr(weights, "diffusion_model"):
        return "diffusion_model"
    if any(hint in type(weights).__name__ for hint in _VAE_HINTS):
        return "vae"
    return "other"
