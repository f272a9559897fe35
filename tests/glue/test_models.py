"""Reading ComfyUI's model manager, version-tolerantly.

The stand-ins below have exactly the attributes Memory Probe reads, as ComfyUI defines them:
0.3.64 (``comfy/model_management.py`` ``LoadedModel``: ``model`` property over a weakref, ``device``;
``comfy/model_patcher.py`` ``ModelPatcher``: ``size``, ``model_size()``, ``loaded_size()`` =
``model.model_loaded_weight_memory``, ``load_device``, ``offload_device``, ``model_dtype()``,
``is_clip``) and current ComfyUI (2026; ``ModelPatcherDynamic`` adds ``is_dynamic()`` and
``loaded_ram_size()``, and its ``loaded_size()`` counts comfy-aimdo's VRAM buffer). The real
0.3.64 objects are read in ``tests/integration/test_residency.py``.
"""

from __future__ import annotations

import gc
import importlib
import weakref
from types import SimpleNamespace

import pytest

GIB = 1024**3
MIB = 1024**2


class Weights:
    """A model's weights module (``BaseModel``, ``SD1ClipModel``, ``AutoencoderKL`` ...)."""

    def __init__(self, dtype="torch.float16", unet=False):
        self._dtype = dtype
        self.model_loaded_weight_memory = 0
        if unet:
            self.diffusion_model = object()

    def parameters(self):  # a float32 scalar first, then the float16 matrices (like SD1ClipModel)
        return iter([param("torch.float32", 1, 4), param(self._dtype, 4096, 2), param(self._dtype, 4096, 2)])


def param(dtype, numel, size):
    return SimpleNamespace(dtype=dtype, nelement=lambda: numel, element_size=lambda: size)


def named(cls_name, **kwargs):
    return type(cls_name, (Weights,), {})(**kwargs)


class Patcher0364:
    def __init__(self, weights, size, load_device="cuda:0", offload_device="cpu", dtype=None):
        self.model, self.size = weights, size
        self.load_device, self.offload_device = load_device, offload_device
        self._dtype = dtype
        self.is_clip = False
        self.sized = 0

    def model_size(self):
        self.sized += 1
        return self.size

    def loaded_size(self):
        return self.model.model_loaded_weight_memory

    def model_dtype(self):
        return self._dtype


class PatcherDynamic(Patcher0364):
    def __init__(self, *args, vbar_bytes=0, pinned=0, **kwargs):
        super().__init__(*args, **kwargs)
        self.vbar_bytes, self.pinned = vbar_bytes, pinned

    def is_dynamic(self):
        return True

    def loaded_size(self):
        return self.vbar_bytes + self.model.model_loaded_weight_memory

    def loaded_ram_size(self):
        return self.pinned


class LoadedModel:
    def __init__(self, patcher):
        self._model = weakref.ref(patcher)
        self.device = patcher.load_device

    @property
    def model(self):
        return self._model()


@pytest.fixture
def models_module(pack):
    return importlib.import_module("memory_probe_pack.glue.models")


def reader_for(models_module, loaded):
    mm = SimpleNamespace(current_loaded_models=loaded)
    return models_module.ModelReader(lambda: mm)


def test_a_partially_loaded_sdxl_reads_its_loaded_and_offloaded_bytes(models_module):
    # GIVEN ComfyUI 0.3.64 holding an SDXL UNet with 3.2 of its 4.8 GiB on the GPU
    unet = named("SDXL", unet=True)
    unet.model_loaded_weight_memory = int(3.2 * GIB)
    patcher = Patcher0364(unet, int(4.8 * GIB), dtype="torch.float16")
    reader = reader_for(models_module, [LoadedModel(patcher)])
    # WHEN it is read
    (state,) = reader.read()
    # THEN size, loaded and offloaded bytes, devices, dtype and kind are what ComfyUI holds
    assert (state.model_class, state.kind, state.device, state.offload_device, state.dtype) == (
        "SDXL",
        "diffusion_model",
        "cuda:0",
        "cpu",
        "float16",
    )
    assert (state.size_bytes, state.loaded_bytes, state.offloaded_bytes) == (
        int(4.8 * GIB),
        int(3.2 * GIB),
        int(4.8 * GIB) - int(3.2 * GIB),
    )
    assert state.dynamic is None and state.pinned_bytes is None  # 0.3.64 cannot say
    assert patcher.sized == 0  # the cached size is read, the model is not sized again


def test_dynamic_vram_counts_the_vram_buffer_and_the_pinned_ram(models_module):
    flux = named("Flux", unet=True)
    flux.model_loaded_weight_memory = 2 * MIB  # force-loaded small weights
    patcher = PatcherDynamic(flux, 12 * GIB, vbar_bytes=7 * GIB, pinned=3 * GIB, dtype="torch.bfloat16")
    (state,) = reader_for(models_module, [LoadedModel(patcher)]).read()
    assert (state.loaded_bytes, state.offloaded_bytes) == (7 * GIB + 2 * MIB, 5 * GIB - 2 * MIB)
    assert (state.dynamic, state.pinned_bytes, state.dtype) == (True, 3 * GIB, "bfloat16")


def test_missing_attributes_read_as_unknown_and_dead_entries_are_skipped(models_module):
    # GIVEN a LoadedModel whose patcher has neither sizes nor devices, and one whose patcher is gone
    bare = SimpleNamespace(model=SimpleNamespace(model=named("Mystery")))
    gone = LoadedModel(Patcher0364(named("Gone"), GIB))
    gc.collect()

    class Broken:
        @property
        def model(self):
            raise RuntimeError("half-built")

    reader = reader_for(models_module, [bare, gone, Broken()])
    # WHEN read THEN the bare one reads as unknown (its dtype: the one most bytes have), the others are skipped
    (state,) = reader.read()
    assert (state.model_class, state.size_bytes, state.loaded_bytes, state.offloaded_bytes, state.device) == (
        "Mystery",
        None,
        None,
        None,
        None,
    )
    assert state.dtype == "float16" and state.kind == "other"


def test_no_model_manager_reads_as_unknown(models_module):
    assert models_module.ModelReader(lambda: None).read() is None
    assert models_module.ModelReader(lambda: SimpleNamespace()).read() is None


def test_node_outputs_name_the_file_and_the_loader_and_the_first_producer_wins(models_module):
    # GIVEN a checkpoint loader's outputs: MODEL (a patcher), CLIP and VAE (objects holding one)
    unet, clip_w, vae_w = named("BaseModel", unet=True), named("SD1ClipModel"), named("AutoencoderKL")
    patchers = [Patcher0364(w, s) for w, s in ((unet, 169 * MIB), (clip_w, 236 * MIB), (vae_w, 319 * MIB))]
    clip = type("CLIP", (), {"patcher": patchers[1]})()
    vae = type("VAE", (), {"patcher": patchers[2]})()
    reader = reader_for(models_module, [LoadedModel(p) for p in patchers])
    reader.note_outputs(
        [[patchers[0]], [clip], [vae]],
        {"node_id": "4", "class_type": "CheckpointLoaderSimple"},
        lambda: ["tiny_sd15.safetensors"],
    )
    # WHEN a LoRA loader later outputs a clone sharing the same weights
    clone = Patcher0364(unet, 169 * MIB)
    reader.note_outputs([[clone]], {"node_id": "10", "class_type": "LoraLoader"}, lambda: ["style.safetensors"])
    # THEN every model carries the checkpoint's file, its loader and a kind from its output type
    states = reader.read()
    assert [(s.model_class, s.kind, s.file, s.loaded_by["node_id"]) for s in states] == [
        ("BaseModel", "diffusion_model", "tiny_sd15.safetensors", "4"),
        ("SD1ClipModel", "text_encoder", "tiny_sd15.safetensors", "4"),
        ("AutoencoderKL", "vae", "tiny_sd15.safetensors", "4"),
    ]
    assert states[0].to_dict()["name"] == "BaseModel (tiny_sd15.safetensors)"


def test_a_clip_vision_loaders_model_is_a_clip_vision_model(models_module):
    # CLIPVisionLoader outputs comfy.clip_vision.ClipVisionModel, holding its patcher as CLIP and VAE do (0.3.64 and 0.38)
    weights = named("CLIPVisionModelProjection")
    patcher = Patcher0364(weights, 1208 * MIB)
    vision = type("ClipVisionModel", (), {"patcher": patcher})()
    reader = reader_for(models_module, [LoadedModel(patcher)])
    reader.note_outputs(
        [[vision]], {"node_id": "7", "class_type": "CLIPVisionLoader"}, lambda: ["clip_vision_h.safetensors"]
    )
    [state] = reader.read()
    assert (state.kind, state.file, state.loaded_by["class_type"]) == (
        "clip_vision",
        "clip_vision_h.safetensors",
        "CLIPVisionLoader",
    )


def test_odd_outputs_are_ignored(models_module):
    reader = reader_for(models_module, [])
    for outputs in (None, "text", [None], [[1, 2, 3]], [["a"]] * 40, ([{"samples": 1}],)):
        reader.note_outputs(outputs, {"node_id": "1", "class_type": "X"}, lambda: [])
    assert reader.read() == []


# ---------------------------------------------------------------- wired into a traced prompt
def test_a_traced_prompt_records_what_the_model_manager_did_at_each_node(pack, monkeypatch, tmp_path):
    """The runtime against stand-ins of ComfyUI's execution and model_management modules: the
    loader's output names the file, the sampler's partial load is read and logged."""
    import logging
    import sys
    from types import ModuleType

    from comfy_doubles import Node, install_modules, make_execution_module

    runtime_module = importlib.import_module("memory_probe_pack.glue.runtime")
    mm = ModuleType("comfy.model_management")
    mm.current_loaded_models = []
    monkeypatch.setitem(sys.modules, "comfy.model_management", mm)
    execution = make_execution_module()
    install_modules(monkeypatch, execution)
    rt = runtime_module.Runtime(data_dir=tmp_path)
    rt.start()
    try:
        unet = named("SDXL", unet=True)
        patcher = Patcher0364(unet, int(4.8 * GIB), dtype="torch.float16")

        def sample():  # what load_models_gpu does with too little VRAM, and what it logs
            logging.getLogger().info("Requested to load SDXL")
            unet.model_loaded_weight_memory = int(3.2 * GIB)
            mm.current_loaded_models.insert(0, LoadedModel(patcher))
            logging.getLogger().info("loaded partially 3400.0 3276.8 0")
            return ("latent",)

        prompt = {
            "4": {"class_type": "CheckpointLoaderSimple", "inputs": {"ckpt_name": "sdxl/sd_xl_base_1.0.safetensors"}},
            "3": {"class_type": "KSampler", "inputs": {"model": ["4", 0]}},
        }
        nodes = {"4": Node(lambda: (patcher, "clip", "vae")), "3": Node(sample)}
        logging.getLogger().setLevel(logging.INFO)
        execution.PromptExecutor(nodes).execute(prompt, "p-models", {}, ["3"])
        run = rt.tracker.last
        loader, sampler = run.nodes
        assert loader.models == [] and loader.model_changes == []
        (model,) = sampler.models
        assert (model["name"], model["loaded_bytes"], model["offloaded_bytes"]) == (
            "SDXL (sd_xl_base_1.0.safetensors)",
            int(3.2 * GIB),
            int(4.8 * GIB) - int(3.2 * GIB),
        )
        assert model["loaded_by"] == {"node_id": "4", "class_type": "CheckpointLoaderSimple"}
        assert [c["change"] for c in sampler.model_changes] == ["partially-loaded"]
        (event,) = run.events
        assert (event.kind, event.node_id, event.data["model_class"]) == ("model-partially-loaded", "3", "SDXL")
        assert event.data["loaded_bytes"] == round(3276.8 * MIB)
        assert run.models_end == sampler.models and rt.status() is not None
    finally:
        rt.shutdown()
        for hook in rt.hooks:
            hook.remove()
        for handler in [h for h in logging.getLogger().handlers if type(h).__name__ == "ComfyLogHandler"]:
            logging.getLogger().removeHandler(handler)


def test_the_model_management_state_is_read_where_comfyui_has_it(pack, monkeypatch):
    import enum
    import sys
    from types import ModuleType

    environment = importlib.import_module("memory_probe_pack.glue.environment")
    assert environment.model_management_state() == {"vram_state": None, "dynamic_vram": None}  # no ComfyUI
    mm, memory = ModuleType("comfy.model_management"), ModuleType("comfy.memory_management")
    mm.vram_state = enum.Enum("VRAMState", "DISABLED NO_VRAM LOW_VRAM NORMAL_VRAM HIGH_VRAM").LOW_VRAM
    monkeypatch.setitem(sys.modules, "comfy.model_management", mm)
    assert environment.model_management_state() == {"vram_state": "LOW_VRAM", "dynamic_vram": None}  # 0.3.64
    memory.aimdo_enabled = True  # current ComfyUI with dynamic VRAM on
    monkeypatch.setitem(sys.modules, "comfy.memory_management", memory)
    assert environment.model_management_state() == {"vram_state": "LOW_VRAM", "dynamic_vram": True}
