"""The workflow as the forecast reads it: an API-format graph (``{id: {class_type, inputs}}``) walked
in the order ComfyUI executes it, with what flows along each link — which model, which latent shape,
which image size — and, for each node, what it will do to memory: the models it moves onto the compute
device, ComfyUI's estimate of its working memory, the image it keeps.

A node the forecast does not know (most custom nodes) is a :class:`Step` with ``unknown`` set: its
memory is not counted, and what it passes on is taken from its inputs of the same type (a model
patch passes its model on) — said, never silent. What each of ComfyUI's own node classes does is read by its handler
(:mod:`.handlers`); the values and steps are :mod:`.steps`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import fields
from typing import Any

from ..judging.custom_nodes import custom_node
from ..judging.stages import (
    RECORDED_COMFYUI,
    NodeClass,
    NodeSpec,
    newer_builtin,
    newer_node_specs,
    node_specs,
    stage_of,
    unrecorded_builtin_nodes,
)
from ..judging.workflow import follow, is_link, literal, switch_choice
from .handlers import HANDLERS, generic
from .steps import Image, Latent, ModelRef, Step, Value

__all__ = ["ModelRef", "Latent", "Image", "Step", "walk", "execution_order"]


class Walk:
    """One walk of one graph: the values along its links, the steps it records."""

    def __init__(self, prompt: Mapping[str, Any], image_size: Callable[[str], tuple[int, int] | None] | None) -> None:
        self.prompt = {
            str(k): v for k, v in prompt.items() if isinstance(v, dict) and isinstance(v.get("class_type"), str)
        }
        self.image_size = image_size
        self.outputs: dict[str, list[Value]] = {}
        self.passthrough: dict[str, dict[str, Value]] = {}
        self.steps: list[Step] = []
        self.unsized_loaders: set[str] = set()
        """Nodes that load a model the forecast cannot size (a pack's loader, a loader newer than its table)."""
        self.vae_channels: Callable[[ModelRef], int | None] = lambda _ref: None

    # -- reading inputs ---------------------------------------------------------------
    def value(self, raw: Any, kind: str) -> Value:
        """What a link carries, of the type ``kind`` (through the switches that pass it on)."""
        raw = self.source(raw)
        if not is_link(raw):
            return None
        source, index = str(raw[0]), int(raw[1])
        if source in self.outputs:
            outs = self.outputs[source]
            return outs[index] if 0 <= index < len(outs) else None
        return self.passthrough.get(source, {}).get(kind)

    def lit(self, inputs: Mapping[str, Any], key: str) -> Any:
        return literal(self.prompt, inputs.get(key))

    def source(self, raw: Any) -> Any:
        """The output a link takes its value from: past the switches that pass it on, the chosen branch's."""
        return follow(self.prompt, raw)

    # -- the walk ---------------------------------------------------------------------
    def run(self, order: list[str]) -> list[Step]:
        for node_id in order:
            node = self.prompt[node_id]
            meta = node.get("_meta")
            unnamed = meta.get("widgets_values") if isinstance(meta, dict) else None
            self.node(node_id, node["class_type"], node.get("inputs") or {}, unnamed)
        return self.steps

    def node(self, node_id: str, class_type: str, inputs: Mapping[str, Any], unnamed: Any = None) -> None:
        spec = node_specs().get(class_type)
        if spec is not None:
            stage = stage_of(NodeClass(class_type, spec.category, "nodes", spec.output_node))
        elif class_type in unrecorded_builtin_nodes():  # one of ComfyUI's own not recorded: what its name says
            stage = stage_of(NodeClass(class_type))
        else:  # as the tracer stages a custom node: its pack's table entry, else what its name says
            stage = stage_of(NodeClass(class_type, python_module="custom_nodes"))
        step = Step(node_id, class_type, stage)
        if class_type.startswith(_GROUP_NODE):
            step.unknown = (
                f"{class_type} is a group node (as frontends saved them before subgraphs): the nodes in it are not "
                "counted; save the workflow again from a current frontend, which turns it into a subgraph, or "
                "export it as API, to forecast them"
            )
        handler = HANDLERS.get(class_type)
        if handler is None:
            handler = generic
        outs = handler(self, step, inputs) if spec is not None or class_type in HANDLERS else None
        if outs is None and spec is None and class_type in newer_node_specs():
            outs = self.newer(step, inputs, newer_node_specs()[class_type])
        if outs is None:
            outs = self.unknown(step, inputs, spec is None)
        if outs is not None:
            self.outputs[node_id] = outs
        read = {r.file for r in (*step.reads, *step.loads)}
        values = [*inputs.values(), *(unnamed if isinstance(unnamed, list) else ())]
        step.unread = [name for name in _model_files(values) if name not in read]
        if step.unknown is not None or step.unread:
            step.uses_memory = (
                step.uses_memory
                or bool(step.unread)
                or step.stage in (_MEMORY_STAGES if spec is None else _ESTIMATED_STAGES)
                or (spec is None and custom_node(class_type) is not None)
                or class_type.startswith(_GROUP_NODE)
                or (spec is None and self.runs_a_model(class_type, inputs))
            )
        if step.uses_memory and step.stage == "load":
            self.unsized_loaders.add(node_id)
        self.steps.append(step)

    def newer(self, step: Step, inputs: Mapping[str, Any], spec: NodeSpec) -> list[Value] | None:
        """A node of a ComfyUI newer than the recorded one, read as :func:`generic` reads a built-in by its documented
        inputs (:func:`newer_node_specs`), where that finds the models it runs and they are all it is given: the text
        encoder of a conditioning (``TextEncodeAceStepAudio1.5``), the VAE it encodes an image with
        (``Kandinsky5ImageToVideo``), a CLIP vision — a diffusion model only passed on. Else ``None``: it is read as
        a node the forecast does not know (never taken to be light for what its documentation says)."""
        for name, raw in inputs.items():
            if not is_link(raw := self.source(raw)):
                continue
            kind = spec.input_type(name)
            if str(raw[0]) in self.unsized_loaders or kind is None:
                return None  # what a loader it cannot size loaded; an input its documentation does not type
            if kind == "MODEL" and "MODEL" not in spec.outputs:
                return None  # a diffusion model it runs (a detector's), not one it patches and passes on
            if kind not in _DATA_TYPES | {"CLIP", "VAE", "CLIP_VISION", "MODEL"} and not kind.endswith("_OUTPUT"):
                return None  # a model of another kind (a patch, an audio encoder, an upscaler ...)
        if any(n in ("width", "height", "length") and n not in inputs for n, _, _ in spec.inputs):
            return None  # its size settings unnamed (a saved workflow's values): what it encodes is not sized
        trial = Step(step.node_id, step.class_type, step.stage)
        outs = generic(self, trial, inputs, spec) or []
        if not trial.loads or trial.unknown is not None:
            return None
        for f in fields(Step):
            setattr(step, f.name, getattr(trial, f.name))
        # the models and conditionings it passes on; the size of a latent or image it makes, never (an empty video
        # latent's channels and frames are the model family's: Kandinsky 5's, not the image's it encoded)
        return [None if kind in ("LATENT", "IMAGE") else out for kind, out in zip(spec.outputs, outs, strict=False)]

    def runs_a_model(self, class_type: str, inputs: Mapping[str, Any]) -> bool:
        """A node the forecast does not know that is given a model — a VAE, a text encoder, a CLIP vision, upscale or
        ControlNet model, or what a loader it cannot size loaded — runs it, whatever its name (a newer ComfyUI's
        ``Kandinsky5ImageToVideo`` encodes with the VAE, its ``TextGenerate`` runs the text encoder's LLM). A diffusion
        model says so only beside an image (``SAM3_Detect``, ``RTDETR_detect`` run a checkpoint on it): most nodes
        given one alone patch it. The input's name says what it takes (``vae``, ``clip`` ...): a switch's ``on_true``
        passes a model on, and what an unknown node outputs is only guessed from its inputs. Not so: an empty latent
        given a VAE (``LTXVEmptyLatentAudio``) reads its shape; a node given the diffusion model, the text encoder and
        the VAE at once bundles them (Impact Pack's ``ToBasicPipe``, rgthree's ``Context``)."""
        if "Empty" in class_type and "Latent" in class_type:
            return False
        given: set[str] = set()
        runs = image = False
        for name, raw in inputs.items():
            if not is_link(raw := self.source(raw)):
                continue
            runs = runs or str(raw[0]) in self.unsized_loaders
            for kind, word in _RUN_INPUTS:
                value = self.value(raw, kind) if word in name.lower() else None
                if isinstance(value, tuple) or (isinstance(value, ModelRef) and value.role in _RUN_ROLES):
                    given.add(kind)
            if name == "model" and _kind_of(self.value(raw, "MODEL")) == "MODEL":
                given.add("MODEL")
            image = image or name in ("image", "images", "pixels")
        if {"MODEL", "CLIP", "VAE"} <= given:
            return False
        return runs or bool(given - {"MODEL"}) or ("MODEL" in given and image)

    def unknown(self, step: Step, inputs: Mapping[str, Any], custom: bool) -> list[Value] | None:
        """A node the forecast cannot size: its memory is not counted; it passes on its inputs by type."""
        carried: dict[str, Value] = {}
        resizes = next((k for k, v in inputs.items() if not is_link(v) and _SIZE_INPUT.search(k)), None) or (
            "settings" if _RESIZER.search(step.class_type) else None  # (a saved workflow's values are unnamed)
        )
        for raw in inputs.values():
            for kind in ("MODEL", "CLIP", "VAE", "CLIP_VISION", "LATENT", "IMAGE", "CONDITIONING"):
                if kind not in carried and (v := self.value(raw, kind)) is not None and _kind_of(v) == kind:
                    carried[kind] = v
        if resizes is not None and ({"IMAGE", "LATENT"} & set(carried)):  # (ImageResizeKJv2, InpaintCrop ...)
            carried = {k: v for k, v in carried.items() if k not in ("IMAGE", "LATENT")}
            step.resizes = resizes
        self.passthrough[step.node_id] = carried
        if step.unknown is None:
            what = (
                f"one of ComfyUI's own, newer than {RECORDED_COMFYUI}"
                if newer_builtin(step.class_type)
                else "one of ComfyUI's own audio nodes"
                if step.class_type in unrecorded_builtin_nodes()
                else "a custom node"
            )
            passes = (
                f"what it passes on is taken as unchanged but the image's size (its {step.resizes} may change it)"
                if step.resizes
                else "what it passes on is taken as unchanged"
            )
            step.unknown = (
                f"{step.class_type} is a node the forecast does not know ({what}): its own memory is not counted, "
                + passes
                if custom
                else f"{step.class_type}: no estimate for this node's memory"
            )
        return None


_SIZE_INPUT = re.compile(r"(?i)width|height|size|scale|megapixel|resolution|side|dimension")
"""A setting of a node the forecast does not know that may change the size of the image or latent it passes on
(``ImageResizeKJv2``'s width and height in a queued prompt, ``Image scale to side``'s side_length)."""
_RESIZER = re.compile(r"(?i:resiz|scale|crop)|Pad(?![a-z])|(?:^|[\s_])pad")
"""A node the forecast does not know whose name says it may change an image's size (``ImageResizeKJv2``, ``ImagePadKJ``;
not ``Keypad``)."""
_MODEL_SUFFIXES = (".safetensors", ".sft", ".ckpt", ".pt", ".pth", ".bin", ".gguf", ".onnx", ".engine")
"""How the model files ComfyUI's and the packs' loaders list end."""
_MEMORY_STAGES = frozenset({"load", "text-encode", "sampling", "vae-decode", "vae-encode", "upscale", "image"})
"""The stages whose nodes hold memory of their own (a custom node's by its name: see ``custom_stage_by_name``)."""
_DATA_TYPES = frozenset("IMAGE LATENT CONDITIONING MASK AUDIO VIDEO INT FLOAT STRING BOOLEAN COMBO SIGMAS".split())
"""What a link may carry to a newer node read by its documentation that is no model of its own."""
_RUN_ROLES = frozenset({"vae", "clip_vision", "upscale", "controlnet", "model_patch"})
"""The models a node given one runs (a text encoder travels as a tuple: the CLIP)."""
_RUN_INPUTS = (
    ("VAE", "vae"),
    ("CLIP", "clip"),
    ("CLIP_VISION", "clip_vision"),
    ("UPSCALE_MODEL", "upscale"),
    ("CONTROL_NET", "control"),
    ("MODEL_PATCH", "model_patch"),
)
"""The input that takes each model, by the word its name holds (``vae``, ``clip``, ``upscale_model``, ``control_net``,
``model_patch``)."""
_GROUP_NODE = ("workflow>", "workflow/")
"""A legacy group node's class in a saved workflow (``workflow>Name``; ``workflow/Name`` before frontend 1.x)."""
_ESTIMATED_STAGES = frozenset({"load", "sampling", "vae-decode", "vae-encode"})
"""A built-in node's stages whose memory is a model's or ComfyUI's estimate (an unknown image size is only an image's)."""


_BRANCHES = ("on_true", "on_false")
"""A switch's two lazy inputs (``ComfySwitchNode``)."""


def _model_files(values: list[Any]) -> list[str]:
    """The model files a node's own values name (``"wan2.1_i2v_480p_14B_fp8.safetensors"``), also inside a widget of
    several values unless it is switched off (rgthree's Power Lora Loader: ``{"on": true, "lora": ..., "strength": ...}``
    per LoRA, as the saved workflow and the queued prompt hold it)."""
    named = [
        x
        for v in values
        for x in (v.values() if isinstance(v, dict) and v.get("on") is not False else (v,))
        if isinstance(x, str) and x.lower().endswith(_MODEL_SUFFIXES)
    ]
    return list(dict.fromkeys(named))


def _kind_of(value: Value) -> str | None:
    if isinstance(value, Latent):
        return "LATENT"
    if isinstance(value, Image):
        return "IMAGE"
    if isinstance(value, ModelRef):
        return {"diffusion": "MODEL", "vae": "VAE", "clip_vision": "CLIP_VISION"}.get(value.role)
    if isinstance(value, tuple):
        return "CLIP"
    if isinstance(value, frozenset):
        return "CONDITIONING"
    return None


# ---------------------------------------------------------------------------- order and entry
def execution_order(prompt: Mapping[str, Any]) -> list[str]:
    """The nodes ComfyUI runs, inputs before the node (depth first from each output node in id
    order); nodes no output depends on do not run, nor the branch a switch whose condition is set does not pass on
    (its inputs are lazy: ComfyUI asks only for the chosen one)."""
    nodes = {str(k): v for k, v in prompt.items() if isinstance(v, dict) and isinstance(v.get("class_type"), str)}
    consumers: dict[str, int] = {k: 0 for k in nodes}
    for node in nodes.values():
        for raw in (node.get("inputs") or {}).values():
            if is_link(raw) and str(raw[0]) in consumers:
                consumers[str(raw[0])] += 1

    def is_output(nid: str) -> bool:
        spec = node_specs().get(nodes[nid]["class_type"])
        return spec.output_node if spec is not None else consumers[nid] == 0

    def key(nid: str) -> tuple[int, str]:
        return (int(nid), nid) if nid.isdigit() else (1 << 60, nid)

    order: list[str] = []
    seen: set[str] = set()

    def visit(nid: str, depth: int = 0) -> None:
        if nid in seen or nid not in nodes or depth > 2000:
            return
        seen.add(nid)
        chosen = switch_choice(nodes, nodes[nid])  # (a switch's lazy branches: ComfyUI runs the chosen one)
        for name, raw in (nodes[nid].get("inputs") or {}).items():
            if is_link(raw) and (chosen is None or name not in _BRANCHES or name == chosen):
                visit(str(raw[0]), depth + 1)
        order.append(nid)

    outputs = [n for n in nodes if is_output(n)] or [n for n in nodes if consumers[n] == 0]  # a graph still edited
    for nid in sorted(outputs, key=key):
        visit(nid)
    return order


def walk(
    prompt: Mapping[str, Any],
    *,
    image_size: Callable[[str], tuple[int, int] | None] | None = None,
    vae_channels: Callable[[ModelRef], int | None] | None = None,
) -> list[Step]:
    """Every node ComfyUI will run, in its order, with what it does to memory."""
    w = Walk(prompt, image_size)
    if vae_channels is not None:
        w.vae_channels = vae_channels
    return w.run(execution_order(w.prompt))
