"""The pack's entry point and the Memory Probe node, against a stand-in of ComfyUI's V3 API."""

from __future__ import annotations

import asyncio
import importlib
import threading


def test_importing_the_pack_outside_comfyui_has_no_side_effects(pack):
    threads_before = {t.name for t in threading.enumerate()}
    assert pack.WEB_DIRECTORY == "./js"
    assert asyncio.iscoroutinefunction(pack.comfy_entrypoint)
    assert not hasattr(pack, "NODE_CLASS_MAPPINGS")  # one API: V3 (a V1 mapping would win over it)
    assert {t.name for t in threading.enumerate()} == threads_before


def test_the_probe_is_a_passthrough_of_the_very_same_object(pack, fake_comfy_api, monkeypatch, tmp_path):
    probe_module = importlib.import_module("memory_probe_pack.nodes.probe")
    runtime_module = importlib.import_module("memory_probe_pack.glue.runtime")
    monkeypatch.setattr(runtime_module, "_runtime", runtime_module.Runtime(data_dir=tmp_path))
    node = probe_module.MemProbe
    node.hidden = type("Hidden", (), {"unique_id": "21"})()
    latent = {"samples": object()}
    out = node.execute(latent, "after sampling")
    assert out.args[0] is latent and len(out.args) == 1
    text = out.ui.as_dict()["text"][0]
    assert text.startswith("after sampling\nRAM ") and "Commit" in text


def test_the_probe_returns_its_input_even_when_measuring_fails(pack, fake_comfy_api, monkeypatch):
    probe_module = importlib.import_module("memory_probe_pack.nodes.probe")

    def broken():
        raise RuntimeError("runtime exploded")

    monkeypatch.setattr(probe_module, "get_runtime", broken)
    value = object()
    out = probe_module.MemProbe.execute(value, "x")
    assert out.args[0] is value and "no reading" in out.ui.as_dict()["text"][0]


def test_the_probe_schema_documents_itself_and_keeps_caching(pack, fake_comfy_api):
    probe_module = importlib.import_module("memory_probe_pack.nodes.probe")
    node = probe_module.MemProbe
    schema = node.define_schema()
    assert schema.node_id == "MemProbe" and schema.display_name == "Memory Probe"
    assert schema.category == "utils/memory" and "cached" in schema.description
    assert all(i.tooltip for i in schema.inputs) and all(o.tooltip for o in schema.outputs)
    assert schema.inputs[0].__class__.__qualname__ == "_Input" and schema.inputs[0].id == "value"
    # no fingerprint override: a NaN fingerprint would re-run the probe and everything downstream
    assert "fingerprint_inputs" not in vars(node) and "IS_CHANGED" not in vars(node)


def test_the_entrypoint_returns_the_extension_with_its_nodes(pack, fake_comfy_api, monkeypatch, tmp_path):
    runtime_module = importlib.import_module("memory_probe_pack.glue.runtime")
    rt = runtime_module.Runtime(data_dir=tmp_path)
    monkeypatch.setattr(runtime_module, "_runtime", rt)
    try:
        extension = asyncio.run(pack.comfy_entrypoint())
        nodes = asyncio.run(extension.get_node_list())
        assert [n.define_schema().node_id for n in nodes] == ["MemProbe"]
        assert rt.started
    finally:
        rt.shutdown()
