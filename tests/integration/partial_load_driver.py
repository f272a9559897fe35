"""Drive ComfyUI's real partial-load path on CPU tensors and read it the way Memory Probe does.

Run with ComfyUI's own Python, from ComfyUI's folder (``test_residency.py`` does):
``python partial_load_driver.py CHECKPOINT TESTS_DIR`` prints one JSON document.

What ComfyUI's ``load_models_gpu`` does on a GPU with too little VRAM — ``LoadedModel(patcher)``,
``model_load(lowvram_model_memory)`` (which calls ``ModelPatcher.partially_load`` → ``load``),
``current_loaded_models.insert(0, ...)`` — is done here by hand, because on a CPU ComfyUI never
budgets. Then ``model_unload(memory_to_free)`` (``ModelPatcher.partially_unload``), loading the
rest (``model_use_more_vram``) and ``unload_all_models``. After each step the ``ModelReader``
reads ``current_loaded_models`` and ``ComfyLogHandler`` has seen ComfyUI's own log lines.
"""

from __future__ import annotations

import json
import logging
import os
import sys

checkpoint, tests_dir = sys.argv[1], sys.argv[2]
sys.argv = ["main.py", "--cpu"]
sys.path.insert(0, os.getcwd())
sys.path.insert(0, tests_dir)

import comfy.options  # noqa: E402

comfy.options.enable_args_parsing()

import comfy.model_management as mm  # noqa: E402
import comfy.sd  # noqa: E402
import torch  # noqa: E402
from helpers import load_pack  # noqa: E402

load_pack()
from memory_probe_pack.glue.models import ModelReader  # noqa: E402
from memory_probe_pack.memprobe.judging.residency import diff_models  # noqa: E402
from memory_probe_pack.memprobe.recording.loghandler import ComfyLogHandler  # noqa: E402


class LogLines:
    """Stands in for the tracker: collects what the log handler reports."""

    def __init__(self) -> None:
        self.lines: list[dict] = []

    def on_model_log(self, line) -> None:
        self.lines.append(line.to_dict())

    def on_fallback(self, kind, message) -> None:
        pass


sink = LogLines()
logging.getLogger().setLevel(logging.INFO)
logging.getLogger().addHandler(ComfyLogHandler(sink))  # type: ignore[arg-type]

model, clip, vae, *_ = comfy.sd.load_checkpoint_guess_config(checkpoint, output_vae=True, output_clip=True)
reader = ModelReader()
reader.note_outputs(
    [[model], [clip], [vae]],
    {"node_id": "4", "class_type": "CheckpointLoaderSimple"},
    lambda: [os.path.basename(checkpoint)],
)
size = model.model_size()
steps: list[dict] = []


def step(name: str) -> None:
    reading = [s.to_dict() for s in reader.read()]
    before = steps[-1]["models"] if steps else []
    steps.append({"step": name, "models": reading, "changes": diff_models(before, reading), "log": sink.lines[:]})
    sink.lines.clear()


step("start")
with torch.inference_mode():
    loaded = mm.LoadedModel(model)
    loaded.model_load(lowvram_model_memory=int(size * 0.4))  # VRAM for 40 % of the UNet
    mm.current_loaded_models.insert(0, loaded)
    step("partial load")
    loaded.model_unload(memory_to_free=int(size * 0.15))  # another model needs room
    step("partial unload")
    loaded.model_use_more_vram(1e32)  # room again: load the rest
    step("load the rest")
    mm.unload_all_models()
    step("unload all")

sys.stdout.write(
    json.dumps(
        {
            "size": size,
            "dtype": str(model.model_dtype()),
            "model_class": type(model.model).__name__,
            "lowvram_patch_counter": model.lowvram_patch_counter(),
            "steps": steps,
        }
    )
    + "\n"
)
