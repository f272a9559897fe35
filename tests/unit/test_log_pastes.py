"""What a paste says on its own: one line, a popup's text, an error report, another library's or a launcher's
wording — which memory ran out, at which node (the frontend's dialog and API clients' payloads: test_log_dialogs).
On real issue-thread logs (each test cites its thread: tests/fixtures/logs/SOURCES.md)."""

from __future__ import annotations

import pytest
from helpers import FIXTURES, kind_and_ending

from memprobe.logs.explain import explain_log
from memprobe.logs.reader import read_log

LOGS = FIXTURES / "logs"


def text(name: str) -> str:
    return (LOGS / name).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("paste", "kind", "ending"),
    [
        ("MemoryError", "system-ram", None),  # Python's, with nothing else pasted
        ("torch.OutOfMemoryError", "vram", None),
        ("got prompt\nRequested to load SDXL\nKilled: 9", "system-ram", "killed"),  # macOS' shell after SIGKILL
        (  # Windows' access-violation dialog
            "The instruction at 0x00007FF8A1B2C3D4 referenced memory at 0x0000000000000000. The memory could not be read.",
            "abrupt",
            "crash",
        ),
        ("Runtime error\nMemory limit exceeded", "cgroup-limit", "cgroup-kill"),  # a Hugging Face Space's status
        # comfy-aimdo#74: funchook's words when aimdo cannot hook the driver; ComfyUI goes on without it
        ("funchook_prepare(cuMemAlloc_v2) failed: 8\nFailed to allocate memory in unused regions", "other", None),
        # not memory: depth-fm#5 (a Mac), ollama-intel-arc#27 (an image for another CPU)
        ("Cannot convert a MPS Tensor to float64 dtype as the MPS framework doesn't support float64.", "other", None),
        ("comfyui-ipex    | exec /usr/bin/startup.sh: exec format error", "other", None),
        # faulthandler's stack, its "Windows fatal exception" line cut from the paste (comfyui#15802)
        (
            'Stack (most recent call first):\n  File "D:\\ComfyUI\\comfy\\utils.py", line 136 in load_torch_file',
            "abrupt",
            "crash",
        ),
        ("The process is killed.", "system-ram", "killed"),  # a bug report's whole log field (comfyui#10475)
        ("Stuck on Reconnecting after Run", "abrupt", "unreachable"),  # the frontend's toast, told (templates#396)
        # the server refused the prompt (StabilityMatrix#993); a pack's own check before it allocates (kaola-ace-step#9)
        (
            "got prompt\ninvalid prompt: {'type': 'invalid_prompt', 'message': 'Cannot execute because node X does not exist.'}",
            "other",
            None,
        ),
        (
            "!!! Exception during processing !!! Generation failed: Insufficient free VRAM: need ~1.1 GB, only 0.0 GB available.",
            "vram",
            None,
        ),
        (
            "Given groups=1, weight of size [320, 4, 3, 3], expected input[2, 8, 96, 96] to have 4 channels, but got 8 channels instead",
            "other",
            None,
        ),
        # native crash reports: a crash handler's (SageAttention#270), supervisord's (ai-dock#8), amdgpu's hang
        ("got prompt\n  0%|   | 0/9 [00:00<?, ?it/s]Exception Code: 0x80000003", "abrupt", "crash"),
        ("INFO exited: comfyui (exit status 139; not expected)", "abrupt", "crash"),
        ("kernel: [drm] VRAM is lost due to GPU reset!", "abrupt", "crash"),
        ("INFO exited: comfyui (terminated by SIGKILL; not expected)", "system-ram", "killed"),
        ("Error - ComfyUI execution error: Falscher Parameter.", "other", None),  # SwarmUI's wording (SwarmUI#1178)
        ("RuntimeError: VRAM reservation failed", "other", None),  # comfy-aimdo's cast buffer (comfy-aimdo#49)
        ("AudioSeparateVocals Allocation on device This error means you ran out of memory on your GPU.", "vram", None),
        # SwarmUI's backend ended and it restarts it (SwarmUI#1214); Krita's popup (krita-ai-diffusion#167)
        (
            "00:28:14.334 [Error] Self-Start ComfyUI-0 on port 7821 failed. Restarting per configuration AutoRestart=true...",
            "abrupt",
            "backend-exit",
        ),
        ("Server Execution error: convolution_overridable nor implemented.", "other", None),
        # a qualified exception without "Error" in its name, as Python prints the type and message of
        # triton-windows#30's report; pip's own line when a requirement has no wheel for this Python
        (
            "torch._dynamo.exc.BackendCompilerFailed: backend='inductor' raised:\nCompilationError: at 8:11:",
            "other",
            None,
        ),
        (
            "ERROR: Could not find a version that satisfies the requirement torch==2.9.0 (from versions: none)",
            "other",
            None,
        ),
        # the fish shell's SIGKILL (ComfyUI-LTXVideo#254), make's (HardAndHeavy/comfyui-rocm-docker#4: a `docker run`, but
        # make also reports a compiler the OOM killer ended, so no container is assumed),
        # systemd's results, an aki launcher's exit-code analysis in English (IDEA-Research/DWPose#104)
        ("fish: Job 1, 'python main.py' terminated by signal SIGKILL (Forced quit)", "system-ram", "killed"),
        ("make: *** [Makefile:15: run] Error 137\nmake: *** [Makefile:24: run] Error 2", "system-ram", "killed"),
        ("comfyui.service: Failed with result 'oom-kill'.", "system-ram", "memory-kill"),
        # a SIGKILL's status however a launcher words it; Cloud Run's own kill at the container's limit
        ("Exit code: 137", "system-ram", "killed"),
        ("comfyui terminated by signal 9", "system-ram", "killed"),
        (
            "Memory limit of 16384 MiB exceeded with 16401 MiB used. Consider increasing the memory limit",
            "cgroup-limit",
            "cgroup-kill",
        ),
        ("comfyui.service: Failed with result 'core-dump'.", "abrupt", "crash"),
        (
            "The following is an analysis of the exit codes.\nSystem exit code name: STACK_BUFFER_OVERRUN",
            "abrupt",
            "crash",
        ),
    ],
)
def test_what_a_bare_paste_says_ran_out(paste, kind, ending):
    from memprobe.logs.explain import explain_log

    failure = explain_log(paste)["failure"]
    assert failure["kind"] == kind and failure.get("ending") == ending


def test_what_python_swallowed_is_no_failure():
    # "Exception ignored in: <function HostBuffer.__del__>": the prompt went on and completed (comfyui-mcp#414)
    facts = read_log(text("comfyuimcp414_hostbuffer_del_ignored_nofailure_console.log"))
    assert not any(p.failures for p in facts.prompts) and facts.prompts[-1].ended == "executed"


def test_a_pack_that_failed_to_import_is_the_failure_of_a_start_up_log():
    from memprobe.logs.explain import explain_log

    doc = explain_log(text("stabilitymatrix762_import_failed_insightface_console.log"))
    assert doc["failure"]["kind"] == "other" and doc["failure"]["stage"] == "other"
    assert "No module named" in doc["failure"]["message"] and doc["suggestions"] == []


def test_an_errors_wording_pasted_alone_is_a_failure_and_nothing_is_not():
    from memprobe.logs.explain import explain_log

    # nf4#52 and WanVideoWrapper#927: Python's wording without the exception's type
    for paste in (
        "Flux.forward() missing 1 required positional argument: 'y'",
        "'WanVideoVAE38' object has no attribute 'z_dim",
    ):
        doc = explain_log(paste)
        assert doc["failure"]["kind"] == "other" and doc["failure"]["message"] == paste
    # a banner and nothing after it: no failure, and it says what it cannot tell
    doc = explain_log(text("comfyui9837_violacion_segmento_flux_kontext_console.log"))
    assert doc["failure"] is None and any(u.startswith("whether anything failed") for u in doc["unknown"])
    # far into a session's console, such a line is not taken for the failure
    session = "got prompt\nPrompt executed in 1.0 seconds\n" * 300 + "x object has no attribute 'y'\n"
    assert explain_log(session)["failure"] is None


def test_comfyuis_exception_line_as_a_browser_translated_it():
    facts = read_log("[错误] !!! 处理过程中发生异常 !!! 'NoneType' object has no attribute 'shape'\n")
    assert facts.prompts[-1].failures[0].message == "'NoneType' object has no attribute 'shape'"


def test_a_popup_and_the_report_under_it_are_one_failure_when_the_report_repeats_the_type():
    # comfyui#14340: the dialog's "torch.OutOfMemoryError: Allocation on device", then the report, whose
    # Exception Message repeats the type; and a report rendered with plain bullets (MiniMax-H3 discussion 29)
    paste = (
        "torch.OutOfMemoryError: Allocation on device \nThis error means you ran out of memory on your GPU.\n \n"
        "# ComfyUI Error Report\n## Error Details\n- **Node ID:** 3\n- **Node Type:** KSampler\n"
        "- **Exception Type:** torch.OutOfMemoryError\n"
        "- **Exception Message:** torch.OutOfMemoryError: Allocation on device \n"
    )
    (failure,) = read_log(paste).failures
    assert (failure.class_type, failure.message.splitlines()[0]) == ("KSampler", "Allocation on device")
    rendered = (
        "ComfyUI Error Report\nError Details\n- Node ID: 620\n- Node Type: UNETLoader\n- Exception Type: MemoryError\n"
    )
    doc = explain_log(rendered + "- Exception Message: MemoryError:\n")
    assert (doc["failure"]["kind"], doc["failure"]["node"]["class_type"]) == ("system-ram", "UNETLoader")


def test_a_report_copied_as_rendered_text_or_cut_above_its_details():
    rendered = (  # the report's rendered Markdown as a browser copies it: no "#", no "- **" (comfyui#10781)
        "Error Details\nNode ID: 166\nNode Type: KSamplerAdvanced\nException Type: RuntimeError\n"
        "Exception Message: CUDA error: invalid argument\nStack Trace\ntext\n\n"
        '  File "H:\\ComfyUI\\execution.py", line 510, in execute\n'
    )
    (failure,) = read_log(rendered).failures
    assert (failure.source, failure.node_id, failure.class_type) == ("report", "166", "KSamplerAdvanced")
    assert (failure.exception_type, failure.message) == ("RuntimeError", "CUDA error: invalid argument")
    cut = "## Error Details\n- **Node ID:** 4\n- **Node Type:** FluxTrainLoop\n- **Exception Message:** Allocation on device\n"
    (failure,) = read_log(cut).failures  # kijai/ComfyUI-FluxTrainer#184: the title was not pasted
    assert (failure.class_type, failure.message) == ("FluxTrainLoop", "Allocation on device")


def test_the_desktop_apps_word_that_its_server_raised_is_a_failure():
    # Comfy-Org/ComfyUI#12956: main.log of ComfyUI Desktop; exit code 1 is Python's for an uncaught exception
    log = "[2026-03-14 17:42:01.044] [error] Python process exited with code 1 and signal null\n"
    (failure,) = read_log(log).failures
    assert failure.message.startswith("Python process exited with code 1")


def test_torchscripts_wrapper_gives_way_to_the_error_it_wraps():
    # Fannovel16/ComfyUI-Frame-Interpolation#66: FILM VFI's scripted model; "Allocation on device" follows the
    # wrapper's "The following operation failed in the TorchScript interpreter." in TorchScript's own traceback
    doc = explain_log((LOGS / "ComfyUI-Frame-Interpolation66_film_torchscript_allocation_traceback.log").read_bytes())
    assert doc["failure"]["kind"] == "vram" and doc["failure"]["message"] == "Allocation on device"
    assert doc["suggestions"]
    alone = "!!! Exception during processing !!! The following operation failed in the TorchScript interpreter.\n"
    assert kind_and_ending(alone)[0] == "other"  # with nothing below it, the wrapper is all there is


def test_a_platforms_limit_on_one_allocation_is_not_memory_running_out():
    # simonlui/Docker_IPEX_ComfyUI#11: an Arc A770 16 GB with 2.29 GiB allocated refuses one 7.03 GiB block
    doc = explain_log((LOGS / "Docker_IPEX_ComfyUI11_xpu_4gb_block_limit_oneline.log").read_bytes())
    assert doc["failure"]["kind"] == "other"
    first = doc["suggestions"][0]
    assert first["id"] == "smaller-allocation" and "7.0 GiB" in first["why"] and "4 GB" in first["why"]
    assert not explain_log("CUDA out of memory. Tried to allocate 7.03 GiB (GPU 0; 15.91 GiB total capacity)")[
        "suggestions"
    ][0]["id"].startswith("smaller-allocation")


def test_dynamic_vrams_fault_in_that_found_no_vram():
    # Comfy-Org/ComfyUI#15360: comfy-aimdo's model-vbar.c logs "VRAM Allocation failed" when a page did not fit even
    # after evicting other models' pages, and returns VBAR_FAULT_ERROR ("Fault failed: 2"); its "(non OOM)" variant
    # (another CUDA error) is not memory running out (ComfyUI15269 in the corpus, which names KSampler)
    doc = explain_log((LOGS / "ComfyUI15360_aimdo_fault_failed_system_freeze_oneline.log").read_bytes())
    assert doc["failure"]["kind"] == "vram" and doc["suggestions"]
    non_oom = (
        "[ERROR] aimdo: src/model-vbar.c:392:ERROR:VRAM Allocation failed (non OOM)\nRuntimeError: Fault failed: 2"
    )
    assert kind_and_ending(non_oom)[0] == "other"


def test_comfy_kitchens_probe_of_its_backends_is_a_notice():
    # Comfy-Org/ComfyUI#11682: newer ComfyUI's start-up names why comfy-kitchen's CUDA backend is unavailable
    log = (LOGS / "ComfyUI11682_comfy_kitchen_dll_zh_tw_console.log").read_bytes()
    assert explain_log(log)["failure"] is None
    assert (
        kind_and_ending("ImportError: DLL load failed while importing _C: The specified module could not be found.")[0]
        == "other"
    )


def test_comfy_aimdos_loader_on_a_machine_without_its_gpu_library_is_a_notice():
    # Comfy-Org/ComfyUI-Manager#2852 (an AMD card) and comfy-aimdo#33 (aarch64): comfy-aimdo logs why it could not
    # load and returns False; ComfyUI runs on without dynamic VRAM
    for name in (
        "ComfyUI-Manager2852_aimdo_libcuda_amd_startup_console.log",
        "comfy-aimdo33_aarch64_sharedobject_console.log",
    ):
        assert explain_log((LOGS / name).read_bytes())["failure"] is None, name
    assert (
        kind_and_ending("OSError: libcuda.so.1: cannot open shared object file: No such file or directory")[0]
        == "other"
    )


def test_a_cuda_kernels_device_side_assertion_is_an_error_not_an_abort():
    # kijai/ComfyUI-Florence2#202: indexSelectSmallIndex's assertion, its first copy printed on the beam search's bar
    doc = explain_log((LOGS / "ComfyUI-Florence2202_missing_keys_cuda_index_assert_console.log").read_bytes())
    assert doc["failure"]["kind"] == "other" and "srcIndex < srcSelectDimSize" in doc["failure"]["message"]
    # a host-side C assert still aborts the process: ROCm's "Assertion `err == hipSuccess' failed."
    assert kind_and_ending("python3: /src/hip/memory.cpp:42: void f(): Assertion `err == hipSuccess' failed.") == (
        "abrupt",
        "crash",
    )


def test_comfyuis_fallback_from_sageattention_is_no_failure():
    # Tongyi-MAI/Z-Image#52: the kernel asked for more shared memory than the GPU's block has; ComfyUI's
    # attention_sage logs why and runs PyTorch's attention instead, and the images complete
    assert explain_log((LOGS / "Z-Image52_sage_shared_memory_fallback_oneline.log").read_bytes())["failure"] is None
    kernel = "Error running sage attention: CUDA error: no kernel image is available for execution on the device"
    assert kind_and_ending(
        f"got prompt\n{kernel}\n, using pytorch attention instead.\nPrompt executed in 9.1 seconds"
    ) == (
        None,
        None,
    )


def test_ffmpegs_broken_pipe_alone_is_an_error_not_memory():
    # Kosinkadink/ComfyUI-VideoHelperSuite#355 and crystian/ComfyUI-Crystools#214: the video preview's ffmpeg lost
    # its pipe; in the second a pack's line before it quotes ctypes' "exception: access violation", which that
    # pack caught ("Turning off this feature"): no crash
    for name in (
        "ComfyUI-VideoHelperSuite355_muxer_broken_pipe_console.log",
        "ComfyUI-Crystools214_gpu_temp_access_violation_console.log",
    ):
        assert kind_and_ending((LOGS / name).read_bytes()) == ("other", None), name
    # Windows' own word for the fault that ended the process is still a crash
    assert kind_and_ending("got prompt\nWindows fatal exception: access violation\n") == ("abrupt", "crash")


def test_a_front_ends_failed_command_is_the_error():
    # ViewComfy/ViewComfy#11: Node's child_process error for `comfy run`, whose output says ComfyUI was not running
    doc = explain_log((LOGS / "ViewComfy11_comfy_run_not_running_console.log").read_bytes())
    assert doc["failure"]["kind"] == "other" and "Command failed: comfy run" in doc["failure"]["message"]


def test_a_launchers_own_errors_alone():
    # patientx/ComfyUI-Zluda#361: cmd's syntax error in the launcher's .bat; Acly/krita-ai-diffusion#191: the
    # server's output the client could not decode
    for log in (
        "ComfyUI-Zluda361_batch_unexpected_at_this_time_console.log",
        "krita-ai-diffusion191_utf8_codec_server_startup_console.log",
    ):
        assert kind_and_ending((LOGS / log).read_bytes())[0] == "other"


@pytest.mark.parametrize(
    ("name", "words"),
    [
        # YanWenKun/ComfyUI-Docker#156: a torch kernel JIT-compiled by NVRTC, whose library the image lacks
        ("ComfyUI-Docker156_nvrtc_builtins_missing_console.log", "libnvrtc-builtins"),
        # yuvraj108c/ComfyUI-Upscaler-Tensorrt#36: TensorRT's builder found no kernel for a layer
        ("ComfyUI-Upscaler-Tensorrt36_no_implementation_conv_console.log", "Error Code 10"),
        # KLL535/ComfyUI_Simple_Qwen3-VL-gguf#7: ggml's fixed metadata context, not RAM ("available 16")
        ("ComfyUI_Simple_Qwen3-VL-gguf7_ggml_context_pool_oneline.log", "context's memory pool"),
        # diodiogod/TTS-Audio-Suite#64: a TypeError's wording, under the pack's own prefix
        ("TTS-Audio-Suite64_higgs_staticcache_len_oneline.log", "has no len()"),
        # utensils/comfyui-nix#80: CUDA's error with the source line that raised it, a build without the GPU's code
        ("comfyui-nix80_rtx5080_flash_attention_hopper_no_kernel_oneline.log", "no kernel image"),
        # Acly/krita-ai-diffusion#616: the port was taken (Windows' message in Chinese), then the retry failed
        ("krita-ai-diffusion616_port_bind_jobobject_console.log", "Could not bind on address"),
        # Comfy-Org/ComfyUI-Manager#257: git, a child process, crashed (0xC00000FD); ComfyUI lived on
        ("ComfyUI-Manager257_git_exit_code_3221225725_oneline.log", "Cmd('git') failed"),
    ],
)
def test_errors_in_other_tools_wordings_are_errors_not_memory(name: str, words: str):
    doc = explain_log((LOGS / name).read_bytes())
    assert doc["failure"]["kind"] == "other" and words in doc["failure"]["message"], name


def test_a_wrappers_own_prefix_before_every_line_is_learned():
    # Stability-AI/StableSwarmUI#153: its backend's stderr, every line "ComfyUI error: ", a traceback among them
    doc = explain_log((LOGS / "StableSwarmUI153_docker_cuda_unknown_error_traceback.log").read_bytes())
    assert doc["failure"]["kind"] == "other" and doc["failure"]["message"].startswith("CUDA unknown error")
    # the same words before a one-line paste are its error, not a prefix
    assert explain_log("ComfyUI error: Numpy is not available")["failure"]["kind"] == "other"


@pytest.mark.parametrize(
    ("name", "words"),
    [
        # phineas-pta/comfy-trt-test#5: a pack's error at Python logging's ERROR level, nothing else failing
        ("comfy-trt-test5_onnx_export_xformers_flash_console.log", "Exporting to ONNX failed"),
        # ROCm/TheRock#2524: MIOpen's own error lines for the VAE's convolution
        ("TheRock2524_miopen_vae_launch_failure_console.log", "MIOpen(HIP): Error"),
        # intel/intel-xpu-backend-for-triton#7633: Intel's GPU compiler refused a kernel (its scratch space)
        ("intel-xpu-backend-for-triton7633_a770_ptss_scratch_console.log", "backend compiler failed build"),
        # Comfy-Org/ComfyUI_frontend#774: the browser console's uncaught error
        ("ComfyUI_frontend774_webp_workflow_rangeerror_console.log", "Maximum call stack size exceeded"),
    ],
)
def test_more_errors_in_other_tools_wordings(name: str, words: str):
    doc = explain_log((LOGS / name).read_bytes())
    assert doc["failure"]["kind"] == "other" and words in doc["failure"]["message"], name


def test_an_error_report_squashed_without_spaces_names_its_node():
    # Comfy-Org/ComfyUI#6666: the report on one line, its sections run together ("Report## Error Details- **Node ID:")
    doc = explain_log((LOGS / "ComfyUI6666_rembg_onnxruntime_cuda_path_report.log").read_bytes())
    assert (doc["failure"]["kind"], doc["failure"]["node"]["class_type"]) == (
        "other",
        "Image Rembg (Remove Background)",
    )


def test_the_window_comfyui_runs_in_running_out_is_not_the_servers_ram():
    # artokun/comfyui-mcp-panel#1952: Electron's renderer of the Desktop app, killed for memory; the server lived on
    doc = explain_log((LOGS / "comfyui-mcp-panel1952_renderer_oom_oneline.log").read_bytes())
    assert doc["failure"]["kind"] == "system-ram" and doc["failure"]["ending"] == "window-oom"
    ids = [s["id"] for s in doc["suggestions"]]
    assert ids[0] == "reload-window" and "pagefile" not in ids


def test_a_paste_that_stops_at_a_librarys_error_line_in_mid_prompt_stopped_at_that_error():
    # yuvraj108c/ComfyUI-Facerestore-Tensorrt#8: "got prompt", the engine's load, TensorRT's "[E] ... Error Code 1"
    doc = explain_log((LOGS / "ComfyUI-Facerestore-Tensorrt8_deserialize_version_tag_console.log").read_bytes())
    assert doc["failure"]["kind"] == "other" and "Error Code 1" in doc["failure"]["message"]
    # a logger's warning that quotes an error is not where the run stopped (nunchaku-tech/ComfyUI-nunchaku#57; its
    # paste stops inside the next line's stamp, "[20": cut when copied, so no failure at all, as its thread says)
    doc = explain_log((LOGS / "nunchaku57_flux_reload_loading_warnings_console.log").read_bytes())
    assert doc["failure"] is None and "Failed to load safetensors" not in str(doc["verdict"])


def test_a_worker_sigkill_ended_is_system_ram_to_confirm():
    # torch's own words (torch/utils/data/dataloader.py: "DataLoader worker (pid(s) {}) ... killed by signal: {}";
    # torch.multiprocessing's ProcessExitedException): SIGKILL, most often the kernel's OOM killer, to confirm
    for paste in (
        "RuntimeError: DataLoader worker (pid 1234) is killed by signal: Killed.",
        "torch.multiprocessing.spawn.ProcessExitedException: process 0 terminated with signal SIGKILL",
    ):
        doc = explain_log(paste)
        assert doc["failure"]["kind"] == "system-ram", paste
        assert doc["suggestions"][0]["try"].startswith("First confirm it was the kernel's OOM killer")


def test_an_ides_exit_code_137_is_a_hosts_kill_not_a_containers():
    # PyCharm's "Process finished with exit code 137 (interrupted by signal 9: SIGKILL)": a process on the host;
    # docker's "exited with code 137" is a container's
    assert kind_and_ending("Process finished with exit code 137 (interrupted by signal 9: SIGKILL)") == (
        "system-ram",
        "killed",
    )
    assert kind_and_ending("comfyui-1 exited with code 137") == ("cgroup-limit", "killed")


@pytest.mark.parametrize(
    ("paste", "kind"),
    [
        ("Out of VRAM", "vram"),  # what a user types in place of a log, a pack's own word
        ("ran out of VRAM during VAE decode", "vram"),
        ("Insufficient GPU memory", "vram"),
        ("System RAM is full", "system-ram"),
        ("Disk full", "disk"),
        ("out of memory", None),  # which memory, it does not say
        ("显存不足", "vram"),  # ... in the languages users post in: VRAM short (Chinese, Japanese, Russian, German,
        ("GPU显存不足，请降低分辨率", "vram"),  # French, Spanish)
        ("爆显存了", "vram"),
        ("VRAM不足です", "vram"),
        ("Недостаточно видеопамяти", "vram"),
        ("Nicht genügend VRAM", "vram"),
        ("VRAM insuffisante", "vram"),
        ("VRAM insuficiente", "vram"),
        ("VRAM OOM", "vram"),
        # Comfy-Org/ComfyUI#13173: a maintainer's note where a run did not finish ("<<DNF - RAM OOM>>")
        ("<<DNF - RAM OOM>>", "system-ram"),
    ],
)
def test_what_a_user_types_in_place_of_a_log_names_its_memory(paste: str, kind: str | None):
    assert (explain_log(paste)["failure"] or {}).get("kind") == kind


@pytest.mark.parametrize(
    "message",
    [
        # torch's "CUDA out of memory. Tried to allocate 20.00 MiB" as a page translator renders it
        "CUDA内存不足。尝试分配 20.00 MiB。GPU 0 的总容量为 8.00 GiB，其中 0 字节可用。",
        "CUDA のメモリが不足しています。 1.50 GiB を割り当てようとしました",
        "CUDA 메모리가 부족합니다. 1.50GiB를 할당하려고 했습니다.",
        "Недостаточно памяти CUDA. Попытка выделить 1,50 ГиБ",
        "Nicht genügend CUDA-Speicher. Es wurde versucht, 20,00 MiB zuzuweisen",
        "Mémoire CUDA insuffisante. Tentative d'allocation de 20,00 Mio",
        "CUDA sin memoria. Se intentó asignar 20,00 MiB",
        "CUDA sem memória. Tentou alocar 20,00 MiB",
    ],
)
def test_a_device_oom_a_browser_translated_is_vram_and_memory_short_alone_is_not_a_kind(message: str):
    doc = explain_log(message)
    assert doc["failure"]["kind"] == "vram"
    assert doc["suggestions"]
    for alone in ("内存不足", "недостаточно памяти", "メモリ不足です"):  # which memory, it does not say
        assert explain_log(alone)["failure"] is None


def test_a_report_whose_colons_a_translator_made_full_width_is_read_field_by_field():
    # Chinese renders "**Node Type:**" as "**节点类型：**" (a full-width colon), also outside the stars
    for colon in ("：**", "**："):
        report = (
            "# ComfyUI 错误报告\n## 错误详情\n"
            f"- **节点 ID{colon} 3\n- **节点类型{colon} KSampler\n- **异常类型{colon} torch.OutOfMemoryError\n"
            f"- **异常消息{colon} CUDA 内存不足。尝试分配 20.00 MiB。\n"
        )
        failure = explain_log(report)["failure"]
        assert (failure["kind"], failure["node"]["class_type"], failure["node"]["id"]) == ("vram", "KSampler", "3")
        assert failure["exception_type"] == "torch.OutOfMemoryError"


@pytest.mark.parametrize(
    "line",
    [
        # Acly/krita-ai-diffusion#1140: ZLUDA's nvcuda.dll without a HIP function the loader looked for
        "The procedure entry point hipDeviceSetLimit could not be found in the dynamic link library "
        "C:\\Zluda\\ComfyUI-Zluda\\zluda\\nvcuda.dll",
        "The procedure entry point ?x@y could not be located in the dynamic link library c10.dll",
        "The code execution cannot proceed because cudart64_12.dll was not found. Reinstalling the program may fix "
        "this problem.",
    ],
)
def test_windows_loaders_own_dialog_is_a_failure_not_memory(line: str):
    assert explain_log(line)["failure"]["kind"] == "other"


@pytest.mark.parametrize(
    ("paste", "kind"),
    [
        # kijai/ComfyUI-KJNodes#119: torch's overflow for a size input gone wild (a seed fed to width and height)
        ("Storage size calculation overflowed with sizes=[1, 3, 542722322349980, 542722322349980]", "other"),
        # kijai/ComfyUI-SUPIR#130: an OSError's message without its type, in Windows' Russian
        ("[WinError 1314] Клиент не обладает требуемыми правами: 'D:\\\\a' -> 'D:\\\\b'", "other"),
        ("[Errno 13] Permission denied: '/app/output'", "other"),
        # a GPU runtime's own error code alone: a failure; only its out-of-memory codes are memory
        ("hipErrorNoBinaryForGpu: Unable to find code object for all current devices!", "other"),
        ("CUDA_ERROR_ILLEGAL_ADDRESS", "other"),
        ("UR_RESULT_ERROR_DEVICE_LOST", "other"),
        ("hipErrorOutOfMemory", "vram"),
        ("CUDA_ERROR_OUT_OF_MEMORY", "vram"),
        ("UR_RESULT_ERROR_OUT_OF_DEVICE_MEMORY", "vram"),
    ],
)
def test_errors_pasted_without_their_type(paste: str, kind: str):
    assert explain_log(paste)["failure"]["kind"] == kind


def test_xformers_without_an_operator_is_a_failure_not_memory():
    # cubiq/PuLID_ComfyUI#103: xFormers' NotImplementedError text ("No operator found for
    # `memory_efficient_attention_forward`"), pasted without its type
    doc = explain_log((LOGS / "PuLID_ComfyUI103_xformers_no_operator_popup.log").read_bytes())
    assert doc["failure"]["kind"] == "other"
    assert doc["failure"]["message"].startswith("No operator found for `memory_efficient_attention_forward`")


def test_a_paste_that_stops_at_a_packs_error_mark_stops_there_however_it_is_quoted():
    # diodiogod/TTS-Audio-Suite#183: the pack's "❌ Unknown HuBERT model" near the paste's end, two notices after it;
    # quoted in a reply, every line (the trailing empty one too) gets "> ": the end is the last line with text
    log = text("TTS-Audio-Suite183_rvc_hubert_401_download_console.log")
    for paste in (log, "\n".join("> " + line for line in log.split("\n"))):
        failure = explain_log(paste)["failure"]
        assert (failure["kind"], failure["message"]) == ("other", "❌ Unknown HuBERT model: hubert-base-rvc")


def test_the_desktop_apps_error_level_line_that_says_something_failed_is_the_failure():
    # Comfy-Org/desktop#380: uv could not unpack Python (a download timed out), logged at "[error]" at set-up;
    # the app also logs harmless lines at that level ("alwaysResolve: Promise timed out"), which are no failure
    failure = explain_log(text("desktop380_uv_unpack_timeout_console.log"))["failure"]
    assert failure["kind"] == "other"
    assert failure["message"].startswith("Error creating virtual environment: Error: Failed to create")
    noise = "[2025-05-15 10:28:56.735] [error] @todesktop/runtime: alwaysResolve: Promise timed out after 30000ms"
    assert explain_log(noise)["failure"] is None


def test_an_error_printed_on_a_progress_bars_line_is_read():
    # lllyasviel/stable-diffusion-webui-forge#1256 (ComfyUI's model management in Forge): the LoRA patcher's bar,
    # then "ERROR lora ... CUDA out of memory. Tried to allocate 144.00 MiB" on the same console line
    name = "lllyasviel-stable-diffusion-webui-forge1256_lora_patch_oom_retry_offload.log"
    doc = explain_log((LOGS / name).read_bytes())
    assert doc["failure"]["kind"] == "vram" and "144.00 MiB" in doc["failure"]["message"]
    # what is printed on a bar's line and says no ending is no ending (the bar was cut by the error, not the process)
    assert not doc["failure"]["abrupt"]


def test_a_file_a_page_shows_as_a_table_reads_as_the_file():
    # a gist (as a search store keeps it): each line of the file in a table's row, "| line | |"
    failure = explain_log(text("gist_Nancin_wanmoeksampleradvanced_assertion_report.log"))["failure"]
    assert (failure["kind"], failure["source"], failure["node"]["class_type"]) == (
        "other",
        "report",
        "WanMoeKSamplerAdvanced",
    )
    # a file viewer's rows, the line-number column emptied: its stamps and lines are read as the log's
    rows = "| | |\n| | [2024-09-13 07:21] got prompt |\n| | [2024-09-13 07:21] !!! Exception during processing !!! "
    doc = explain_log(rows + "Allocation on device |\n")
    assert doc["failure"]["kind"] == "vram" and doc["failure"]["message"] == "Allocation on device"
    # a real table (two cells with text) is not unwrapped
    assert explain_log("| model | size |\n|---|---|\n| flux1-dev | 23.8 GB |\n")["failure"] is None


def test_a_paste_cut_at_its_first_letter_is_read_as_whole():
    # the old dialog's heading without its "E" (Comfy-Org/ComfyUI's stabilityai/control-lora discussion #24)
    failure = explain_log(text("hf_stabilityai_control-lora24_midas_preprocessor_ckpt_missing.log"))["failure"]
    assert (failure["source"], failure["node"]["class_type"]) == ("popup", "MiDaS-DepthMapPreprocessor")
    # a level without its "[": "INFO] Prompt executed in ..." is ComfyUI's line, the prompt finished
    doc = explain_log(text("comfyui14679_ltx23_tiledsampler_oom_console.log"))
    assert doc["prompts"]["completed"] == 1 and doc["failure"]["kind"] == "vram"


def test_a_warning_that_the_run_went_on_another_way_is_no_failure():
    # Kijai/MiniMax-H3-TAE#4: the previewer raised each step and ComfyUI fell back to Latent2RGB; sampling went on
    assert explain_log(text("Kijai-MiniMax-H3-TAE4_previewer_warning_latent2rgb_fallback.log"))["failure"] is None
    # a warning that only says an error is still the log's error (SwarmUI logs ComfyUI's stderr at [Warning])
    failure = explain_log(text("StableSwarmUI311_comfy_backend_no_torch.log"))["failure"]
    assert failure["kind"] == "other" and failure["message"].endswith("No module named 'torch'")
