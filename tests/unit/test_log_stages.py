"""Where a failure happened, from what a traceback passes through when it names no node: ComfyUI's VAE code (also
under a fork's folder names), a pack's or a pipeline's decode, ComfyUI's retry of a decode in tiles — and the first
step that follows from it. On real issue-thread logs (each test cites its thread: tests/fixtures/logs/SOURCES.md)."""

from __future__ import annotations

import pytest
from helpers import FIXTURES

from memprobe.logs.explain import explain_log

LOGS = FIXTURES / "logs"


def test_a_custom_nodes_decode_named_by_the_call_its_paste_ends_at_is_told_to_tile():
    # AIGODLIKE/ComfyUI-ToonCrafter#3: the traceback ends at latent diffusion's decode_first_stage (its VAE)
    doc = explain_log((LOGS / "ComfyUI-ToonCrafter3_4090_decode_first_stage_oom_traceback.log").read_bytes())
    assert doc["failure"]["kind"] == "vram" and doc["failure"]["stage"] == "vae-decode"
    assert doc["suggestions"][0]["id"] in ("tiled-decode", "tiled-decode-own", "custom-node-tiling")


def test_a_diffusers_pipelines_decode_latents_is_a_vae_decode():
    # aigc-apps/VideoX-Fun#100: the traceback ends at the pipeline's decode_latents
    doc = explain_log((LOGS / "VideoX-Fun100_cogvideox_fun_decode_allocation_traceback.log").read_bytes())
    assert doc["failure"]["kind"] == "vram" and doc["failure"]["stage"] == "vae-decode"
    assert doc["suggestions"][0]["id"] in ("tiled-decode", "tiled-decode-own", "custom-node-tiling")


def test_comfyuis_vae_code_places_a_traceback_that_names_no_node_also_under_a_forks_folder_names():
    # lllyasviel/Fooocus#1088: the error it handled ran in the VAE decoder's Upsample (diffusionmodules/model.py,
    # which Fooocus keeps as fcbh/ldm/...); the encoder only downsamples
    doc = explain_log((LOGS / "Fooocus1088_directml_vae_decode_upsample_2gb_traceback.log").read_bytes())
    assert doc["failure"]["kind"] == "vram" and doc["failure"]["stage"] == "vae-decode"
    assert "upsampling" in doc["failure"]["stage_evidence"]
    assert doc["suggestions"][0]["id"] == "tiled-decode"
    # Fooocus' fcbh/sample.py is ComfyUI's comfy/sample.py (google-repostas-materia's notebook, a T4 out of VRAM)
    doc = explain_log(
        (LOGS / "google-repostas-materia_fooocus_colab_faceswap_sampling_cuda_oom_console.log").read_bytes()
    )
    assert doc["failure"]["stage"] == "sampling" and "comfy/sample.py" in doc["failure"]["stage_evidence"]
    # ComfyUI's sampling code failing to import (no scipy) is a start-up's failure, not sampling's
    doc = explain_log((LOGS / "ComfyUI_cashgarman_prev_no_scipy_console.log").read_bytes())
    assert doc["failure"]["kind"] == "other" and doc["failure"]["stage"] != "sampling"
    # a VAE file of ComfyUI's newer models, by its function (comfy/ldm/wan/vae.py's decode)
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/w/ComfyUI/comfy/ldm/wan/vae.py", line 520, in decode\n'
        "    out = self.decoder(x[:, :, i:i + 1, :, :], feat_cache=self._feat_map)\n"
        "torch.OutOfMemoryError: Allocation on device\n"
    )
    doc = explain_log(paste)
    assert doc["failure"]["stage"] == "vae-decode" and "wan/vae.py" in doc["failure"]["stage_evidence"]
    # a frame's path as a paste may shorten it (no folder above comfy/), and a function that only says "autoencoder"
    for path, function, stage in (
        ("comfy/ldm/models/autoencoder.py", "decode", "vae-decode"),
        ("/w/ComfyUI/comfy/ldm/models/autoencoder.py", "get_autoencoder_params", None),
    ):
        frames = f'  File "{path}", line 9, in {function}\n    x = f(z)\n'
        doc = explain_log(f"Traceback (most recent call last):\n{frames}torch.OutOfMemoryError: Allocation on device\n")
        assert doc["failure"]["stage"] == stage, path
    # a path written in capitals (a Windows drive) is read the same, and never breaks the reading
    doc = explain_log(paste.replace("/w/ComfyUI/comfy/ldm/wan/vae.py", "D:\\AI\\COMFY\\LDM\\WAN\\VAE.PY"))
    assert doc["failure"]["stage"] == "vae-decode" and "VAE.PY" in doc["failure"]["stage_evidence"]


@pytest.mark.parametrize(
    "name",
    [
        "ComfyUI1332_pipeksamplersdxl_vae_decode_tiled_retry_console.log",  # Comfy-Org/ComfyUI#1332
        "Fooocus1032_vae_decode_oom_tiled_retry_console.log",  # lllyasviel/Fooocus#1032
    ],
)
def test_a_traceback_cut_in_the_decode_comfyui_had_just_retried_in_tiles_is_vram(name: str):
    # "Ran out of memory when regular VAE decoding, retrying with tiled VAE decoding." then a traceback cut before
    # what it raised: the retry failed too, most likely for VRAM again
    doc = explain_log((LOGS / name).read_bytes())
    assert doc["failure"]["kind"] == "vram"
    assert doc["suggestions"][0]["id"] in ("tiled-decode", "tiled-decode-own")
    assert any("so VRAM is assumed" in u for u in doc["unknown"])
    # without the retry above it, a cut traceback says nothing of memory
    cut = '!!! Exception during processing !!!\nTraceback (most recent call last):\n  File "nodes.py", line 1, in f\n'
    assert explain_log(cut)["failure"]["kind"] == "other"


def test_a_traceback_cut_in_comfyuis_retry_in_tiles_is_vram_and_asks_for_smaller_tiles():
    # lllyasviel/Fooocus#2830 (ComfyUI's sd.py as Fooocus' ldm_patched): the paste stops at VAE.decode calling
    # decode_tiled_, which ComfyUI does only after the whole decode ran out of VRAM
    doc = explain_log((LOGS / "lllyasviel-Fooocus2830_gtx1650_custom_aspect_tiled_vae_oom.log").read_bytes())
    assert doc["failure"]["kind"] == "vram" and doc["failure"]["stage"] == "vae-decode"
    assert doc["suggestions"][0]["id"] == "tiled-decode" and "smaller tiles" in doc["suggestions"][0]["title"]
    # VAE Decode (Tiled)'s own call is no retry (ComfyUI's VAE.decode_tiled, the node asked for tiles)
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/w/ComfyUI/nodes.py", line 320, in decode\n'
        "    images = vae.decode_tiled(samples, tile_x=tile_size // compression)\n"
        '  File "/w/ComfyUI/comfy/sd.py", line 731, in decode_tiled\n'
        "    output = self.decode_tiled_(samples, **args)\n"
    )
    doc = explain_log(paste)
    assert "the decode ComfyUI had just retried" not in " ".join(doc["unknown"])


def _v3_traceback(module: str, line: str, *deeper: str) -> str:
    """A newer ComfyUI's traceback through a V3 node's execute (comfy_api's EXECUTE_NORMALIZED), cut at ``deeper``."""
    frames = [
        ("execution.py", "execute", "output_data, output_ui, has_subgraph, has_pending_tasks = await get_output_data("),
        ("execution.py", "process_inputs", "result = f(**inputs)"),
        ("comfy_api/latest/_io.py", "EXECUTE_NORMALIZED", "to_return = cls.execute(*args, **kwargs)"),
        (f"comfy_extras/{module}", "execute", line),
        *((path, fn, code) for path, fn, code in (d.split("|") for d in deeper)),
    ]
    body = "".join(f'  File "/ComfyUI/{path}", line 1, in {fn}\n    {code}\n' for path, fn, code in frames)
    return f"!!! Exception during processing !!! boom\nTraceback (most recent call last):\n{body}RuntimeError: boom\n"


def test_a_newer_nodes_module_stages_it_unless_the_code_below_says_what_it_was_doing():
    # LTX-Video's nodes are in comfy_extras/nodes_lt.py (and newer ComfyUI's nodes_lt_audio.py): a video node
    assert (
        explain_log(_v3_traceback("nodes_lt.py", "positive = conditioning_set_values("))["failure"]["stage"] == "video"
    )
    # Comfy-Org/ComfyUI#13220: LTX-2's audio VAE loader reading its file through comfy/utils.py's load_torch_file in
    # nodes_lt_audio.py's execute: a load, as its thread says, not the module's video stage
    loading = _v3_traceback("nodes_lt_audio.py", "sd = load_torch_file(path)", "comfy/utils.py|load_torch_file|x = 1")
    assert explain_log(loading)["failure"]["stage"] == "load"
    doc = explain_log((FIXTURES / "logs" / "ComfyUI13220_mmap_load_ltx_audio_fatal_stack_console.log").read_bytes())
    assert doc["failure"]["stage"] == "load"
