"""`memprobe forecast WORKFLOW.json`: ComfyUI's own workflow templates (UI format) and API graphs,
read against a ComfyUI folder of header-only model files; the what-if options; clear errors."""

from __future__ import annotations

import copy
import json
import shutil

import pytest
from helpers import FIXTURES

from memprobe.cli import main
from memprobe.forecast.graph import walk
from memprobe.forecast.models import read_model
from memprobe.forecast.service import BadGraph
from memprobe.forecast.verdicts import TIGHT, WONT_FIT
from memprobe.forecast.workflow import _expand_groups, _links, to_api

TEMPLATES = FIXTURES / "templates"
MODELS = FIXTURES / "models"


@pytest.fixture
def comfy(tmp_path):
    """A ComfyUI folder whose models/ holds header-only files under the names the templates use."""
    root = tmp_path / "ComfyUI"
    for folder, name, source in (
        ("checkpoints", "v1-5-pruned-emaonly-fp16.safetensors", "tiny_sd15.safetensors"),
        ("diffusion_models", "flux1-dev.safetensors", "flux1-dev.safetensors"),
        ("vae", "ae.safetensors", "flux_ae_bf16.safetensors"),
        ("vae", "wan_2.1_vae.safetensors", "wan_2.1_vae.safetensors"),
        ("clip_vision", "clip_vision_h.safetensors", "clip_vision_h.safetensors"),
    ):
        (root / "models" / folder).mkdir(parents=True, exist_ok=True)
        shutil.copy(MODELS / source, root / "models" / folder / name)
    (root / "comfyui_version.py").write_text('__version__ = "0.3.64"\n', encoding="utf-8")
    return root


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["forecast", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_every_template_converts_and_walks():
    # the frontend's saved format: widget values land on their inputs in /object_info's order
    for path in TEMPLATES.glob("*.json"):
        api = to_api(json.loads(path.read_text(encoding="utf-8")))
        assert any(s.estimate for s in walk(api)), path.name
    default = to_api(json.loads((TEMPLATES / "default.json").read_text(encoding="utf-8")))
    ksampler = next(n for n in default.values() if n["class_type"] == "KSampler")["inputs"]
    assert (ksampler["steps"], ksampler["cfg"], ksampler["sampler_name"], ksampler["denoise"]) == (20, 8, "euler", 1)
    latent = next(n for n in default.values() if n["class_type"] == "EmptyLatentImage")["inputs"]
    assert latent == {"width": 512, "height": 512, "batch_size": 1}


def test_a_template_with_a_subgraph_is_expanded_as_the_frontend_queues_it():
    # ComfyUI's Qwen-Image InstantX ControlNet template: its Lotus depth pass is a subgraph (node 106), whose
    # instance shows four of its inputs as widgets (the VAE's and the UNet's names, a sigma, a sampler)
    ui = json.loads((TEMPLATES / "subgraphs" / "image_qwen_image_instantx_controlnet.json").read_text(encoding="utf-8"))
    api = to_api(ui)
    assert "106" not in api and api["106:92"]["class_type"] == "SamplerCustomAdvanced"
    assert api["106:97"]["inputs"]["pixels"] == ["75", 0]  # the link into the instance reaches the node inside
    assert api["85"]["inputs"]["image"] == ["106:99", 0] and api["73"]["inputs"]["images"] == ["106:99", 0]  # and out
    assert api["106:98"]["inputs"] == {"samples": ["106:92", 0], "vae": ["106:89", 0]}
    assert {k for k, v in api.items() if v["class_type"] == "PrimitiveNode"} == set()
    # the instance's own widget values feed the nodes inside (not the inside's stale copies)
    instance = next(n for n in ui["nodes"] if n["id"] == 106)
    instance["widgets_values"][0] = "another_vae.safetensors"
    assert to_api(ui)["106:89"]["inputs"]["vae_name"] == "another_vae.safetensors"
    # ... unless their number does not match (a newer frontend's promoted widgets): then the inside keeps its own
    instance["widgets_values"] = ["x"]
    assert to_api(ui)["106:89"]["inputs"]["vae_name"] == "vae-ft-mse-840000-ema-pruned.safetensors"
    # a muted instance mutes what is inside it
    instance["mode"] = 2
    assert not any(k.startswith("106:") for k in to_api(ui))
    # and it is forecast: the sampler inside is the sampling stage's node
    steps = walk(api)
    assert any(s.node_id == "106:92" and s.stage == "sampling" for s in steps)


def test_a_subgraph_inside_a_subgraph_and_one_inside_itself():
    inner = {
        "id": "in",
        "inputs": [{"name": "width", "type": "INT"}],
        "outputs": [{"name": "LATENT", "type": "LATENT"}],
        "nodes": [
            {
                "id": 1,
                "type": "EmptyLatentImage",
                "mode": 0,
                "widgets_values": [512, 512, 1],
                "inputs": [{"name": "width", "type": "INT", "link": 1, "widget": {"name": "width"}}],
            }
        ],
        "links": [
            {"id": 1, "origin_id": -10, "origin_slot": 0, "target_id": 1, "target_slot": 0, "type": "INT"},
            {"id": 2, "origin_id": 1, "origin_slot": 0, "target_id": -20, "target_slot": 0, "type": "LATENT"},
        ],
    }
    outer = {
        "id": "out",
        "inputs": [],
        "outputs": [{"name": "LATENT", "type": "LATENT"}],
        "nodes": [
            {"id": 7, "type": "in", "mode": 0, "widgets_values": [1024], "inputs": [{"name": "width", "type": "INT"}]}
        ],
        "links": [{"id": 3, "origin_id": 7, "origin_slot": 0, "target_id": -20, "target_slot": 0, "type": "LATENT"}],
    }
    ui = {
        "nodes": [
            {"id": 5, "type": "out", "mode": 0, "inputs": [], "outputs": [{"name": "LATENT", "links": [9]}]},
            {"id": 6, "type": "PreviewAny", "mode": 0, "inputs": [{"name": "source", "type": "*", "link": 9}]},
        ],
        "links": [[9, 5, 0, 6, 0, "LATENT"]],
        "definitions": {"subgraphs": [inner, outer]},
    }
    api = to_api(ui)
    assert api["5:7:1"]["inputs"] == {"width": 1024, "height": 512, "batch_size": 1}
    assert api["6"]["inputs"]["source"] == ["5:7:1", 0]
    outer["nodes"][0]["type"] = "out"  # a subgraph that holds itself: a clear error, not a hang
    with pytest.raises(BadGraph, match="nest too deep"):
        to_api(ui)


def test_the_default_template_on_this_cpu_and_on_an_8gb_card(comfy, capsys):
    code, text, _ = run(capsys, str(TEMPLATES / "default.json"), "--comfyui", str(comfy))
    assert code == 0 and "Verdict: fits" in text and "vae-decode" in text and "Not learned on this machine yet" in text
    code, out, _ = run(
        capsys, str(TEMPLATES / "default.json"), "--comfyui", str(comfy), "--json", "--device", "cuda", "--vram", "8GiB"
    )
    doc = json.loads(out)
    assert code == 0 and doc["metric"] == "gpu0_used_bytes" and doc["machine"]["vram_total_bytes"] == 8 * 1024**3
    assert {s["stage"] for s in doc["stages"]} >= {"load", "text-encode", "sampling", "vae-decode"}


def test_flux_on_a_6gb_windows_card_offloads_and_names_what_it_cannot_see(comfy, capsys):
    argv = [str(TEMPLATES / "flux_dev_full_text_to_image.json"), "--comfyui", str(comfy), "--json"]
    code, out, _ = run(capsys, *argv, "--device", "cuda", "--vram", "6GiB", "--os", "windows", "--ram", "32GiB")
    doc = json.loads(out)
    sampling = next(s for s in doc["stages"] if s["stage"] == "sampling")
    assert code == 0 and doc["family"] == "flux" and sampling["offloaded_bytes"] > 10 * 1024**3
    assert any("t5xxl" in u for u in doc["unknown"])  # the T5 file is not in this folder: said, not guessed
    assert doc["machine"]["os"] == "Windows" and doc["machine"]["system_limit_name"] == "commit limit"
    # AND a file that is elsewhere can be sized from the command line
    code, out, _ = run(capsys, *argv, "--model", "t5xxl_fp16.safetensors=9.8GB")
    assert code == 0 and not any("t5xxl_fp16" in u for u in json.loads(out)["unknown"])


def test_a_template_whose_models_are_not_here_is_not_said_to_fit(capsys, tmp_path):
    # GIVEN Wan 2.1 text to video on an 8 GB card, none of its model files on this machine: what is counted
    # (the sampler's and the decode's work) fits, but the 14B model is not counted
    argv = [str(TEMPLATES / "text_to_video_wan.json"), "--comfyui", str(tmp_path), "--device", "cuda", "--vram", "8GiB"]
    code, out, _ = run(capsys, *argv, "--json")
    doc = json.loads(out)
    sampling = next(s for s in doc["stages"] if s["stage"] == "sampling")
    assert code == 0 and doc["verdict"] == "unknown" and sampling["verdict"] == "unknown"
    sampler = next(n for n in doc["nodes"] if n["stage"] == "sampling")
    assert sampler["uncounted"] == ["wan2.1_t2v_1.3B_fp16.safetensors"]
    code, text, _ = run(capsys, *argv)
    assert "Verdict: unknown — 3 model files it loads are not on this machine" in text and "--model NAME=SIZE" in text
    assert "What is counted: peak " in text
    # AND given their sizes, it says again whether it fits
    sizes = ["wan2.1_t2v_1.3B_fp16.safetensors=2.84GB", "umt5_xxl_fp8_e4m3fn_scaled.safetensors=6.74GB"]
    sizes += ["wan_2.1_vae.safetensors=254MB"]
    code, out, _ = run(capsys, *argv, "--json", *(a for size in sizes for a in ("--model", size)))
    assert code == 0 and json.loads(out)["verdict"] in ("fits", "tight", "won't fit")


def test_wan_image_to_video_on_an_8gb_windows_card_counts_every_node_it_runs(comfy, capsys):
    # GIVEN ComfyUI's Wan 2.1 image-to-video template, its VAE and CLIP vision files here, the other two sized
    argv = [str(TEMPLATES / "image_to_video_wan.json"), "--comfyui", str(comfy), "--device", "cuda", "--vram", "8GiB"]
    argv += ["--os", "windows", "--ram", "32GiB", "--model", "wan2.1_i2v_480p_14B_fp16.safetensors=32.8GB"]
    argv += ["--model", "umt5_xxl_fp8_e4m3fn_scaled.safetensors=6.74GB"]
    code, out, _ = run(capsys, *argv, "--json")
    doc = json.loads(out)
    nodes = {n["class_type"]: n for n in doc["nodes"]}
    # THEN it is a verdict: the CLIP vision model and the encode inside WanImageToVideo are counted, not guessed
    assert code == 0 and doc["verdict"] in (TIGHT, WONT_FIT) and not any(n["not_counted"] for n in doc["nodes"])
    assert nodes["CLIPVisionLoader"]["file_bytes"] == read_model(MODELS / "clip_vision_h.safetensors").size_bytes
    vision = nodes["CLIPVisionEncode"]
    assert vision["loads"] == [{"file": "clip_vision_h.safetensors", "role": "clip_vision"}]
    # ViT-H's weights as the file holds them (fp16, ComfyUI's text_encoder_dtype) wholly onto the card
    part = read_model(MODELS / "clip_vision_h.safetensors").parts[0]
    assert (part.role, part.dtype) == ("clip_vision", "F16")
    assert vision["needed_bytes"] == part.file_bytes and vision["offloaded_bytes"] == 0
    i2v = nodes["WanImageToVideo"]
    assert (i2v["estimate"], i2v["estimate_bytes"]) == ("encode", 6000 * 512 * 512 * 2)  # comfy/sd.py, the bf16 VAE
    code, text, _ = run(capsys, *argv)
    assert "clip_vision" not in text.split("Not counted:")[-1] and "journalctl" not in text  # (no OOM killer there)


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["missing.json"], "cannot read"),
        (["--vram", "lots"], "is not a size"),
        (["--model", "x"], "NAME=SIZE"),
    ],
)
def test_bad_input_is_a_clear_error(capsys, tmp_path, argv, needle):
    workflow = str(TEMPLATES / "default.json") if argv[0].startswith("--") else str(tmp_path / argv[0])
    code, _, err = run(capsys, workflow, *(argv if argv[0].startswith("--") else []))
    assert code == 2 and needle in err


def test_a_file_that_is_not_a_workflow(capsys, tmp_path):
    notjson = tmp_path / "x.json"
    notjson.write_text("{", encoding="utf-8")
    empty = tmp_path / "y.json"
    empty.write_text("{}", encoding="utf-8")
    code, _, err = run(capsys, str(notjson))
    assert code == 2 and "is not JSON" in err
    code, _, err = run(capsys, str(empty))
    assert code == 2 and "non-empty object" in err


def _img2img(image: str) -> dict:
    """ComfyUI's image-to-image: a loaded image encoded by the checkpoint's VAE, sampled, decoded."""
    return {
        "1": {"class_type": "CheckpointLoaderSimple", "inputs": {"ckpt_name": "v1-5-pruned-emaonly-fp16.safetensors"}},
        "2": {"class_type": "LoadImage", "inputs": {"image": image}},
        "3": {"class_type": "VAEEncode", "inputs": {"pixels": ["2", 0], "vae": ["1", 2]}},
        "4": {"class_type": "CLIPTextEncode", "inputs": {"text": "a cat", "clip": ["1", 1]}},
        "5": {
            "class_type": "KSampler",
            "inputs": {
                **{"seed": 1, "steps": 20, "cfg": 7.0, "sampler_name": "euler", "scheduler": "normal", "denoise": 0.6},
                **{"model": ["1", 0], "positive": ["4", 0], "negative": ["4", 0], "latent_image": ["3", 0]},
            },
        },
        "6": {"class_type": "VAEDecode", "inputs": {"samples": ["5", 0], "vae": ["1", 2]}},
        "7": {"class_type": "SaveImage", "inputs": {"images": ["6", 0], "filename_prefix": "x"}},
    }


def test_the_input_images_size_is_read_from_comfyuis_input_folder_or_given(comfy, capsys, tmp_path):
    from PIL import Image

    workflow = tmp_path / "img2img.json"
    workflow.write_text(json.dumps(_img2img("photos/cat.png")), encoding="utf-8")
    (comfy / "input" / "photos").mkdir(parents=True)
    Image.new("RGB", (768, 512)).save(comfy / "input" / "photos" / "cat.png")

    def encode(*argv: str) -> dict:
        code, out, _ = run(capsys, str(workflow), "--comfyui", str(comfy), "--json", *argv)
        assert code == 0
        doc = json.loads(out)
        return next(n for n in doc["nodes"] if n["class_type"] == "VAEEncode") | {"_doc": doc}

    # read from its header under input/: the encode's estimate is ComfyUI's for 768x512 (comfy/sd.py's memory_used_encode)
    read = encode()
    assert not read["not_counted"] and read["estimate"] == "encode" and read["estimate_bytes"]
    # the same size given for an image not on this machine: the same estimate
    (comfy / "input" / "photos" / "cat.png").unlink()
    given = encode("--image", "cat.png=768x512")
    assert given["estimate_bytes"] == read["estimate_bytes"] and not given["not_counted"]
    # neither: not counted, and said so
    missing = encode()
    (load,) = [n for n in missing["_doc"]["nodes"] if n["class_type"] == "LoadImage"]
    assert missing["not_counted"] and "input image's size is not known" in load["unknown"]
    # a file that is no image: not counted, and the reason is said once
    (comfy / "input" / "photos" / "cat.png").write_bytes(b"not a png")
    broken = encode()
    assert broken["not_counted"]
    assert sum("input image(s) found but not read" in u for u in broken["_doc"]["unknown"]) == 1
    # ComfyUI's annotated name for an image in output/ (LoadImageOutput's): read there
    (comfy / "output").mkdir()
    Image.new("RGB", (512, 768)).save(comfy / "output" / "cat.png")
    workflow.write_text(json.dumps(_img2img("cat.png [output]")), encoding="utf-8")
    assert encode()["estimate_bytes"] == read["estimate_bytes"]  # the same pixels, turned


@pytest.mark.parametrize("bad", ["cat.png", "cat.png=big", "cat.png=0x512", "=512x512"])
def test_a_bad_image_size_is_a_clear_error(capsys, bad):
    code, _, err = run(capsys, str(TEMPLATES / "default.json"), "--image", bad)
    assert code == 2 and ("NAME=WIDTHxHEIGHT" in err or "WIDTHxHEIGHT, like 1024x768" in err)


def test_a_workflow_inside_the_request_that_sends_it_is_read(capsys, tmp_path):
    # RunPod's worker-comfyui takes {"input": {"workflow": <API graph>}} (its README; a held-out file of w3 ships its
    # workflows so), ComfyUI's POST /prompt {"prompt": <API graph>}: the same forecast as the graph alone
    graph = to_api(json.loads((TEMPLATES / "default.json").read_text(encoding="utf-8")))
    results = []
    for name, doc in (
        ("bare", graph),
        ("runpod", {"input": {"workflow": graph, "images": []}}),
        ("post", {"prompt": graph}),
    ):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(doc), encoding="utf-8")
        code, out, _ = run(capsys, str(path), "--json", "--device", "cuda", "--vram", "8GiB", "--ram", "16GiB")
        assert code == 0, name  # (a what-if machine: this one's memory in use changes from run to run)
        results.append({k: v for k, v in json.loads(out).items() if k in ("verdict", "nodes", "stages")})
    assert results[0] == results[1] == results[2]


def test_the_loras_a_power_lora_loader_switches_on_are_named():
    # rgthree's Power Lora Loader holds one widget per LoRA, {"on", "lora", "strength"} (held-out workflow w3:
    # cseti007/ComfyUI-Workflows hunyuanvideo-rf-inversion named two LoRAs so, and the forecast listed neither)
    graph = to_api(json.loads((TEMPLATES / "default.json").read_text(encoding="utf-8")))
    ckpt = next(k for k, n in graph.items() if n["class_type"] == "CheckpointLoaderSimple")
    sampler = next(n for n in graph.values() if n["class_type"] == "KSampler")
    graph["90"] = {
        "class_type": "Power Lora Loader (rgthree)",
        "inputs": {
            "model": [ckpt, 0],
            "clip": [ckpt, 1],
            "PowerLoraLoaderHeaderWidget": {"type": "PowerLoraLoaderHeaderWidget"},
            "lora_1": {"on": True, "lora": "hunyuan/style/e60s6000.safetensors", "strength": 0.9},
            "lora_2": {"on": False, "lora": "switched_off.safetensors", "strength": 1.0},
            "➕ Add Lora": "",
        },
    }
    sampler["inputs"]["model"] = ["90", 0]
    step = next(s for s in walk(graph) if s.node_id == "90")
    assert step.unread == ["hunyuan/style/e60s6000.safetensors"] and step.uses_memory


GROUPED = FIXTURES / "workflows" / "skarlekar_comfyui-workflows_basic-sdxl-controlnet.json"


def test_a_legacy_group_node_is_expanded_as_the_frontend_queues_it(capsys):
    # held-out workflow w3 (skarlekar/comfyui-workflows, MIT): an SDXL ControlNet graph made one group node
    # (workflow>ControlNet_Group, 9 nodes) before subgraphs; at first sight only "a group node ... not counted"
    ui = json.loads(GROUPED.read_text(encoding="utf-8"))
    api = to_api(ui)
    assert "23" not in api
    assert [api[f"23:{i}"]["class_type"] for i in range(9)] == [
        n["type"] for n in ui["extra"]["groupNodes"]["ControlNet_Group"]["nodes"]
    ]
    # the instance's inputs reach the nodes inside that leave them unlinked, its outputs come from inside
    assert api["23:5"]["inputs"] == {"image": ["20", 0]}  # (its "vae" input is linked to nothing)
    assert api["21"]["inputs"]["images"] == ["23:5", 0] and api["9"]["inputs"]["images"] == ["23:8", 0]
    assert api["23:7"]["inputs"]["latent_image"] == ["23:2", 0] and api["23:8"]["inputs"]["vae"] == ["23:0", 2]
    # the instance's own values win over the copies its definition keeps (the preprocessor: mlsd, not canny)
    assert api["23:3"]["inputs"]["text"].startswith("Create a realistic digital rendering")
    assert api["23:5"]["_meta"]["widgets_values"] == ["mlsd", "sdxl", 512, "None"]
    assert api["23:7"]["inputs"] | {"model": 0} == {
        "seed": 2024, "steps": 30, "cfg": 7, "sampler_name": "dpmpp_2m", "scheduler": "karras", "denoise": 1,
        "model": 0, "positive": ["23:6", 0], "negative": ["23:6", 1], "latent_image": ["23:2", 0],
    }  # fmt: skip
    # and forecast: the checkpoint and the ControlNet inside are read, the sampler inside samples
    sizes = ["juggernautXL_juggXIByRundiffusion.safetensors=6.9GB", "diffusion_pytorch_model_promax.safetensors=2.5GB"]
    argv = [str(GROUPED), "--json", "--device", "cuda", "--vram", "8GiB", "--image", "building.jpg=1024x1024"]
    code, out, _ = run(capsys, *argv, *(a for size in sizes for a in ("--model", size)))
    nodes = {n["node_id"]: n for n in json.loads(out)["nodes"]}
    assert code == 0 and nodes["23:7"]["stage"] == "sampling" and nodes["23:7"]["peak_bytes"] > 6 * 1024**3
    assert [load["role"] for load in nodes["23:7"]["loads"]] == ["diffusion", "controlnet"]
    assert not any("group node" in (n["unknown"] or "") for n in nodes.values())


def test_a_group_node_that_does_not_line_up_is_left_and_said_so():
    ui = json.loads(GROUPED.read_text(encoding="utf-8"))
    group = ui["extra"]["groupNodes"]["ControlNet_Group"]
    # a muted instance mutes what is inside it
    nodes, links = {str(n["id"]): copy.deepcopy(n) for n in ui["nodes"]}, _links(ui["links"])
    nodes["23"]["mode"] = 2
    _expand_groups(nodes, links, ui["extra"]["groupNodes"])
    assert {n["mode"] for k, n in nodes.items() if k.startswith("23:")} == {2} and "23" not in nodes
    # a widget converted to an input: the frontend's order of its values is not the nodes' own, so not guessed
    group["nodes"][7]["inputs"].append({"name": "seed", "type": "INT", "link": None, "widget": {"name": "seed"}})
    api = to_api(ui)
    assert api["23"]["class_type"] == "workflow>ControlNet_Group" and not any(k.startswith("23:") for k in api)
    (step,) = [s for s in walk(api) if s.node_id == "23"]
    assert "is a group node" in (step.unknown or "")
    # values that do not line up with the nodes' (one fewer), or a group node inside itself
    group["nodes"][7]["inputs"].pop()
    next(n for n in ui["nodes"] if n["id"] == 23)["widgets_values"].pop()
    assert "23" in to_api(ui)
    # a definition not as frontends write it (a link to "not a node", a slot that is no slot): left, not a crash
    for spoil in ("link", "slot"):
        bad = json.loads(GROUPED.read_text(encoding="utf-8"))
        definition = bad["extra"]["groupNodes"]["ControlNet_Group"]
        if spoil == "link":
            definition["links"][0][2] = "not a node"
        else:
            definition["nodes"][8]["inputs"].append("vae")
        api = to_api(bad)
        assert "23" in api and not any(k.startswith("23:") for k in api)
    # a node that is no node in the definition (its links name nodes by their place): left, not wired askew
    bad = json.loads(GROUPED.read_text(encoding="utf-8"))
    bad["extra"]["groupNodes"]["ControlNet_Group"]["nodes"].insert(2, "a note")
    assert "23" in to_api(bad)
    # "extra" or "definitions" that are not objects: no group node and no subgraph, not a crash
    odd = {**json.loads(GROUPED.read_text(encoding="utf-8")), "extra": ["x"], "definitions": "y"}
    assert "23" in to_api(odd)
    # a group node holding copies of itself: a clear error, not a graph grown without end
    clones = {"nodes": [{"id": 1, "type": "workflow>G", "mode": 0, "inputs": [], "outputs": []}], "links": []}
    inner = [{"type": "workflow>G", "inputs": [], "outputs": [], "widgets_values": []} for _ in range(3)]
    clones["extra"] = {"groupNodes": {"G": {"nodes": inner, "links": []}}}
    with pytest.raises(BadGraph, match="nest too deep"):
        to_api(clones)
    selfish = {"nodes": [{"id": 1, "type": "workflow>G", "mode": 0, "inputs": [], "outputs": []}], "links": []}
    selfish["extra"] = {"groupNodes": {"G": {"nodes": [{"type": "workflow>G", "index": 0}], "links": []}}}
    with pytest.raises(BadGraph, match="nest too deep"):
        to_api(selfish)


def test_a_real_upscale_workflows_tiled_encode_is_forecast_a_tile_at_a_time(capsys):
    # held-out workflow w3 (tests/fixtures/workflows, lockewerks/comfyui-workflows, MIT): SDXL at 832x1216, latent
    # upscaled, decoded, upscaled 4x by a model, encoded again by VAE Encode (Tiled) at 1024-pixel tiles; at first
    # sight "won't fit, 30 GiB at VAEEncodeTiled" on an 8 GiB card (the whole image's estimate taken as its work)
    workflow = FIXTURES / "workflows" / "lockewerks_comfyui-workflows_photoreal-portrait-upscale.json"
    sizes = ["realvisxlV50_v50Bakedvae.safetensors=6.9GB", "4xNomos8kDAT.pth=121MB"]
    sizes += ["controlnet-union-sdxl-promax.safetensors=2.5GB"]
    argv = [str(workflow), "--json", "--device", "cuda", "--vram", "8GiB"]
    code, out, _ = run(capsys, *argv, *(a for size in sizes for a in ("--model", size)))
    nodes = json.loads(out)["nodes"]
    (encode,) = [n for n in nodes if n["class_type"] == "VAEEncodeTiled"]
    upscaled = next(n for n in nodes if n["class_type"] == "ImageUpscaleWithModel")
    assert code == 0 and upscaled["verdict"] != WONT_FIT
    # a 1024-pixel tile's estimate (comfy/sd.py: 1767 bytes per pixel at fp16 for an SD/SDXL VAE), not the image's
    assert encode["verdict"] != WONT_FIT and encode["working_bytes"] < 4 * 1024**3


def test_a_checkpoint_given_by_its_size_counts_once(capsys):
    # ComfyUI's SDXL base + refiner template, both checkpoints given by size (--model: the layout is not known): each
    # file was counted three times in RAM (as the diffusion model, the text encoder and the VAE: 30.6 GiB of a 23.5 GiB
    # machine, "won't fit" and a 64 GB swap file advised); and a decode whose VAE's size is not known did not make the
    # room ComfyUI makes for its estimate (load_models_gpu(memory_required=...)), so the cached UNets "did not fit"
    argv = [str(TEMPLATES / "sdxl_simple_example.json"), "--json", "--device", "cuda", "--vram", "12GiB"]
    argv += ["--ram", "24GiB", "--model", "sd_xl_base_1.0.safetensors=6.9GB"]
    code, out, _ = run(capsys, *argv, "--model", "sd_xl_refiner_1.0.safetensors=6.1GB")
    doc = json.loads(out)
    load = next(s for s in doc["stages"] if s["stage"] == "load")
    assert code == 0 and load["system_bytes"] < (6.9e9 + 6.1e9) * 1.05  # each file once
    assert WONT_FIT not in {s["verdict"] for s in doc["stages"]}
    assert "sd_xl_base_1.0.safetensors (text_encoder): its part of the file is not known" in " ".join(doc["unknown"])
    decode = next(n for n in doc["nodes"] if n["class_type"] == "VAEDecode")
    assert decode["peak_bytes"] <= 12 * 1024**3
