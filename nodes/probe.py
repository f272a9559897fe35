"""The Memory Probe node: a passthrough that records a labelled memory reading."""

from __future__ import annotations

from typing import Any

from comfy_api.latest import io, ui

from ..glue.runtime import get_runtime


class MemProbe(io.ComfyNode):
    @classmethod
    def define_schema(cls) -> io.Schema:
        return io.Schema(
            node_id="MemProbe",
            display_name="Memory Probe",
            category="utils/memory",
            description=(
                "Passes its input through unchanged and records VRAM, RAM and commit at this point of the "
                "workflow, labelled, in the Memory panel. Put one between stages (after loading, after "
                "sampling, after decoding) to see which stage needs the memory. It runs when its input is "
                "ready; when that input comes from ComfyUI's cache, the probe is cached too and takes no reading."
            ),
            inputs=[
                io.AnyType.Input("value", tooltip="Anything: a model, latent, image... It is passed on untouched."),
                io.String.Input("label", default="probe", tooltip="The name of this reading in the Memory panel."),
            ],
            outputs=[io.AnyType.Output(display_name="value", tooltip="The very same object that came in.")],
            hidden=[io.Hidden.unique_id],
            is_output_node=True,
        )

    @classmethod
    def execute(cls, value: Any, label: str) -> io.NodeOutput:
        text = "Memory Probe: no reading (see the ComfyUI log)"
        try:
            mark = get_runtime().mark(label, cls.hidden.unique_id if cls.hidden is not None else None)
            if mark is not None:
                text = f"{label}\n{mark.summary}"
        except Exception:  # a probe must never break the workflow it measures
            pass
        return io.NodeOutput(value, ui=ui.PreviewText(text))


NODES: list[type[io.ComfyNode]] = [MemProbe]
