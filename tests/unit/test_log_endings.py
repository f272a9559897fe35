"""How a ComfyUI log says its process ended without an error: a console's pause, a kill (the kernel's OOM
killer, a container's limit, a bare SIGKILL), a native crash, a shell's prompt coming back, Ctrl+C, a front-end
that saw its backend end — and the ends a log only seems to show. On real issue-thread logs (each test cites
its thread: tests/fixtures/logs/SOURCES.md)."""

from __future__ import annotations

import pytest
from helpers import FIXTURES, kind_and_ending

from memprobe.logs.explain import explain_log
from memprobe.logs.reader import read_log

LOGS = FIXTURES / "logs"


def text(name: str) -> str:
    return (LOGS / name).read_text(encoding="utf-8")


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
    from memprobe.logs import endings, kills

    texts = (
        *endings._PAUSE,
        *endings._CTRL_C,
        *endings._BACKEND_EXIT,
        *endings._HINT_SUBSTRINGS,
        *endings._CRASH,
        *kills.MEMORY_KILL,
        *kills.CGROUP_KILL,
        *kills.COMMIT_EXHAUSTED,
        *kills.WINDOW_OOM,
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
        ("zsh: segmentation fault  python main.py", "crash"),
        # an instruction the CPU lacks (SIGILL) is an error of its own, the build's: no crash of unknown cause
        ("zsh: illegal instruction  python main.py", None),
        ("docker-immich_microservices-1  | Illegal instruction (core dumped)", None),
        ("Worker (pid:258) was sent code 139!", "crash"),  # gunicorn's arbiter on a worker a signal ended
        ("WARNING  Worker (pid:44557) was sent SIGSEGV!", "crash"),
        ("Exception Code:\tc0000005", "crash"),  # Windows' problem report of an app's crash (Event Viewer)
        ("[10114.342746] memory: usage 6291460kB, limit 6291456kB, failcnt 254573", "cgroup-kill"),
        ("22:07:55.806 [error] Disposing session as kernel process died ExitCode: undefined, Reason: ", "backend-exit"),
        ("comfyui exited with code 134", "crash"),
        ("Getötet", "killed"),
        ("已杀死", "killed"),
        # ... and in a script's or a job's report, the child's command after it (bash's job-control format)
        ('./webui.sh: Zeile 255: 48213 Getötet                 "${python_cmd}" -u "${LAUNCH_SCRIPT}" "$@"', "killed"),
        ('./webui.sh: строка 255: 48213 Убито              "${python_cmd}" -u "${LAUNCH_SCRIPT}" "$@"', "killed"),
        ("[1]+  已杀死               nohup java -jar dlfc-framework-bigdata-statistical-1.0-SNAPSHOT.jar", "killed"),
        ('./webui.sh: linha 255: 48213 Morto                   "${python_cmd}" -u "${LAUNCH_SCRIPT}"', "killed"),
        ("Das Modell wurde getötet und neu geladen, weil der Speicher voll war, siehe Protokoll oben", None),
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
        # the journal and the kernel log: a unit's fatal signal, the kernel's segfault line, NVIDIA's GPU fault
        ("comfyui.service: Main process exited, code=dumped, status=11/SEGV", "crash"),
        ("comfyui.service: Main process exited, code=dumped, status=6/ABRT", "crash"),
        ("python3[4242]: segfault at 0 ip 00007f3a sp 00007ffd error 4 in libc.so.6[7f3a+175000]", "crash"),
        ("NVRM: Xid (PCI:0000:01:00): 79, pid='<unknown>', name=<unknown>, GPU has fallen off the bus.", "crash"),
        # systemd-oomd (Ubuntu's and Fedora's default) kills a whole scope under memory pressure; macOS' dialog
        (
            "systemd-oomd[812]: Killed /user.slice/user-1000.slice/user@1000.service/app.slice/app-comfy.scope due to "
            "memory pressure for /user.slice/user-1000.slice/user@1000.service being 91.02% > 50.00% for > 20s",
            "memory-kill",
        ),
        ("Your system has run out of application memory.", "memory-kill"),
        # a platform's words for a container's limit: its kill, Kubernetes' eviction, Heroku's R15
        ("Container killed by the kernel OOM killer", "cgroup-kill"),
        ("Process killed by the kernel OOM killer", "memory-kill"),
        ("Error: container exceeded its memory limit", "cgroup-kill"),
        # Kubernetes' eviction: the node's memory ran low, not the container's limit (kubelet, not the kernel)
        ("Pod was evicted: The node was low on resource: memory.", "memory-kill"),
        ("Error R15 (Memory quota vastly exceeded)", "cgroup-kill"),
        # IgnatBeresnev/comfyui-gfx1151#2: the kernel's segfault line, its start cut from the paste
        ("error 4 in libhsa-runtime64.so.1.18.70101", "crash"),
        # ROCm/TheRock#7403, patientx-cfz/comfyui-rocm#38: a native stack as two crash handlers print it on Windows
        ("libhipblaslt.dll + 0x4416EE, hipblasLtMatmulAlgoGetHeuristic() + 0x10E", "crash"),
        (
            "00007FFA79B2A9BC00007FFA79B19EB0 torch_python.dll!initModule [<unknown file> @ <unknown line number>]",
            "crash",
        ),
        ("Unhandled exception caught in c10/util/AbortHandler.h", "crash"),
        ("ImportError: libcudart.so.12: cannot open shared object file: No such file or directory", None),
        # robertvoy/ComfyUI-Distributed#3: the pack saw the ComfyUI it started as a worker end, saying nothing of why
        ("[Distributed] Worker process exited", "backend-exit"),
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


def test_swarmuis_word_on_its_dead_backend_is_the_memory_that_ran_out():
    # StableSwarmUI#476: the backend died with system memory at 80 % and a small pagefile (Windows)

    doc = explain_log(text("stableswarm476_backend_failed_pagefile_console.log"))
    assert doc["failure"]["kind"] == "commit-limit" and doc["suggestions"][0]["id"] == "pagefile"


def test_an_end_its_prompt_outlived_is_no_end():

    # a line that reads like the shell's prompt, then the prompt completes: nothing ended
    assert explain_log("got prompt\nD:\\models\\checkpoints\nPrompt executed in 1.00 seconds\n")["failure"] is None


def test_a_client_that_lost_its_server_is_explained_by_the_servers_death():
    # krita-ai-diffusion#1588: the server died (0xC0000005), then Krita's own client raised posting the prompt

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


def test_an_uncaught_cpp_bad_alloc_is_a_crash_not_a_memory_verdict():
    # yuvraj108c/ComfyUI-FLOAT#36 (Linux, after model downloads), ROCm/TheRock#1378 (a nightly build): std::terminate
    # aborts the process; neither thread found memory short. A caught one, raised as Python's MemoryError
    # (pybind11's translation), is still read as RAM.
    for log in (
        "ComfyUI-FLOAT36_std_bad_alloc_terminate_console.log",
        "TheRock1378_rocm_nightly_bad_alloc_core_dumped_console.log",
    ):
        assert kind_and_ending((LOGS / log).read_bytes()) == ("abrupt", "crash")
    assert kind_and_ending("MemoryError: std::bad_alloc")[0] == "system-ram"
    # a torch error std::terminate names is still read for what ran out
    uncaught = (
        "terminate called after throwing an instance of 'c10::OutOfMemoryError'\n"
        "  what():  CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 8.00 GiB\n"
        "Aborted (core dumped)\n"
    )
    assert kind_and_ending(uncaught)[0] == "vram"


def test_a_containers_shell_prompt_makes_a_kill_the_containers_limit():
    # kijai/ComfyUI-WanAnimatePreprocess#1: "Killed" while loading, then root@<12 hex digits>: a container's shell
    log = (LOGS / "ComfyUI-WanAnimatePreprocess1_second_run_killed_container_console.log").read_bytes()
    assert kind_and_ending(log) == ("cgroup-limit", "killed")
    assert kind_and_ending(log.replace(b"e56d3dd32e2a", b"gpu-box"))[0] == "system-ram"  # a host's name: the OOM killer


def test_ctrl_c_during_a_run_is_an_unfinished_run():
    # Kosinkadink/ComfyUI-AnimateDiff-Evolved#384: a script stops after "Loading 3 new models", then ^C
    log = (LOGS / "ComfyUI-AnimateDiff-Evolved384_script_stops_loading_models_console.log").read_bytes()
    assert kind_and_ending(log) == ("abrupt", "stopped")
    assert kind_and_ending("To see the GUI go to: http://127.0.0.1:8188\n^C") == (None, None)  # an idle server stopped
    finished = "got prompt\n100%|██████████| 20/20 [00:04<00:00]\nPrompt executed in 5.1 seconds\n^C\nStopped server\n"
    assert kind_and_ending(finished) == (None, None)
    # cmd's own question after Ctrl+C stops the portable build's .bat, on the echo's line or alone, localized
    running = "got prompt\n 45%|████▌     | 9/20 [00:41<00:50,  4.60s/it]\n"
    assert kind_and_ending(running + "^CTerminate batch job (Y/N)? ") == ("abrupt", "stopped")
    assert kind_and_ending(running + "Batchvorgang abbrechen (J/N)?") == ("abrupt", "stopped")
    assert kind_and_ending("To see the GUI go to: http://127.0.0.1:8188\n^CTerminate batch job (Y/N)?") == (None, None)


def test_swarmui_saw_its_backend_end():
    # Stability-AI/StableSwarmUI#267 (at start-up, on a Mac), Comfy-Org/ComfyUI#2210 (during a request): SwarmUI's
    # "Self-Start ComfyUI-0 on port 7821 unexpectedly exited", with nothing of ComfyUI's own to say why
    for log in (
        "StableSwarmUI267_mac_comfy_selfstart_unexpectedly_exited_console.log",
        "ComfyUI2210_swarmui_selfstart_exited_console.log",
    ):
        assert kind_and_ending((LOGS / log).read_bytes()) == ("abrupt", "backend-exit")
    assert kind_and_ending("22:34:13.325 [Info] Self-Start ComfyUI (Git Pull) exited properly.") == (None, None)


def test_a_front_end_that_names_its_backends_exit_code_says_how_it_ended():
    # Acly/krita-ai-diffusion#1266: the managed server's "-7" is Python's subprocess naming SIGBUS, a crash;
    # krita-ai-diffusion#2039: Windows' access violation as the code; a pastebin paste of SwarmUI's line with it
    for log in (
        "krita-ai-diffusion1266_server_terminated_code_minus7_console.log",
        "krita2039_server_terminated_3221225477_console.log",
        "pastebinPM8QDMCD_swarm_comfy_exit_c0000005_console.log",
    ):
        assert kind_and_ending((LOGS / log).read_bytes()) == ("abrupt", "crash"), log
    assert kind_and_ending("ERROR Server process terminated with code -9") == ("system-ram", "killed")
    assert kind_and_ending("ERROR Server process terminated with code 1") == ("abrupt", "backend-exit")
    # dtaddis/ai-remaster-pipeline#19 and #20: a pipeline that launches ComfyUI saw it exit, its error not shown
    for log in (
        "ai-remaster-pipeline19_comfyui_exit_code1_console.log",
        "ai-remaster-pipeline20_comfyui_exit_code_1_launcher.log",
    ):
        assert kind_and_ending((LOGS / log).read_bytes()) == ("abrupt", "backend-exit"), log


def test_hips_own_fatal_line_is_a_crash():
    # ltdrdata/ComfyUI-Impact-Pack#1146: AMD's Windows ROCm build ends FaceDetailer with clr/hipamd's level-0 error
    log = (LOGS / "ComfyUI-Impact-Pack1146_hip_global_module_not_initialized_oneline.log").read_bytes()
    assert kind_and_ending(log) == ("abrupt", "crash")


def test_faulthandlers_stack_without_its_header_is_a_crash():
    # Acly/krita-ai-diffusion#2487: the server log keeps only faulthandler's frames ("line 25 in <module>", no comma)
    log = (LOGS / "krita-ai-diffusion2487_faulthandler_import_crash_console.log").read_bytes()
    assert kind_and_ending(log) == ("abrupt", "crash")
    assert (
        kind_and_ending('  File "main.py", line 196, in <module>\nValueError: bad')[0] == "other"
    )  # Python's own traceback


def test_a_log_stamped_to_the_minute_that_stops_mid_load_is_an_unfinished_run():
    # kijai/ComfyUI-SUPIR#87: a log whose every line begins "[2024-03-24 20:49] " ends while the SDXL model loads
    assert kind_and_ending(text("ComfyUI-SUPIR87_loader_v2_sdxl_silent_crash_console.log")) == ("abrupt", "log-stops")


def test_a_relaunch_typed_at_the_shell_ends_the_process_launched_before_it():
    # lllyasviel/Fooocus#1657: the first start-up stops after "Running on local URL", the prompt comes back and
    # the user types the same command again
    assert kind_and_ending(text("Fooocus1657_silent_exit_startup_console.log")) == ("abrupt", "exited")
    # a command before the launch (a git pull, then the launcher) ends nothing
    log = "C:\\ComfyUI>git pull\nAlready up to date.\n\nC:\\ComfyUI>run_nvidia_gpu.bat\nTotal VRAM 8192 MB\n"
    assert kind_and_ending(log) == (None, None)


def test_a_launchers_child_killed_by_a_signal_is_a_kill_not_a_python_error():
    # Panchovix/stable-diffusion-webui-reForge#241: under WSL, the launcher's own traceback says its child died
    assert kind_and_ending(text("stable-diffusion-webui-reForge241_wsl_sigkill_oneline.log")) == (
        "system-ram",
        "killed",
    )
    segv = "subprocess.CalledProcessError: Command '['python', 'main.py']' died with <Signals.SIGSEGV: 11>."
    assert kind_and_ending(segv) == ("abrupt", "crash")
    status = "subprocess.CalledProcessError: Command '['git', 'pull']' returned non-zero exit status 1."
    assert kind_and_ending(status) == ("other", None)


def test_an_end_after_the_start_up_and_before_any_prompt_is_said_so():
    # lllyasviel/Fooocus#1657 and Comfy-Org/ComfyUI#5387: the banner, then the process ended; no prompt had run
    for name in ("Fooocus1657_silent_exit_startup_console.log", "ComfyUI5387_rocm_fedora_startup_segfault_console.log"):
        verdict = explain_log(text(name))["verdict"]
        assert verdict["title"] == "ComfyUI ended before any prompt ran", name
    # an end in a prompt's middle stays "mid-run"; so does a one-line crash, which shows no start-up
    assert explain_log(text("abrupt_pause_flux_portable_chinese.log"))["verdict"]["title"].startswith(
        "ComfyUI ended mid-run"
    )
    assert explain_log("Segmentation fault (core dumped)\n")["verdict"]["title"].startswith("ComfyUI ended mid-run")


def test_earlyooms_own_lines_and_a_containers_exit_status():
    # earlyoom's console (src/kill.c: 'sending SIGTERM to process %d uid %d "%s": badness %d, VmRSS %lld MiB')
    log = (
        "earlyoom v1.7\nmem avail: 120 of 31000 MiB ( 0.39%), swap free: 0 of 2047 MiB ( 0.00%)\n"
        'low memory! at or below SIGTERM limits: mem 10.00%, swap 10.00%\nsending SIGTERM to process 4242 uid 1000 "python": '
        "badness 900, VmRSS 28000 MiB"
    )
    assert kind_and_ending(log) == ("system-ram", "memory-kill")
    assert kind_and_ending("Container exited with status 137 (out of memory)")[0] == "cgroup-limit"


def test_a_launchers_error_panel_ends_comfyuis_service():
    # intel/AI-Playground#397: "Service: comfyui-backend ... Exit Code: Unknown", no error text
    log = (LOGS / "AI-Playground397_comfyui_backend_startup_exit_unknown_other.log").read_bytes()
    assert kind_and_ending(log) == ("abrupt", "backend-exit")
    panel = "Service: comfyui-backend\nCommand: comfyui-backend startup\nExit Code: 3221225477\nDuration: 12.0s"
    assert kind_and_ending(panel) == ("abrupt", "crash")
    assert kind_and_ending("Service: comfyui-backend\nExit Code: 137") == ("system-ram", "killed")
    assert kind_and_ending("Exit Code: Unknown") == (None, None)  # no service named: nothing to say it was ComfyUI


def test_a_crash_its_prompt_outlived_is_a_process_it_started():
    # hay86/ComfyUI_LatentSync#6: the shell's "Segmentation fault (core dumped)" after a bar, then "Prompt executed"
    doc = explain_log((LOGS / "ComfyUI_LatentSync6_segfault_affine_console.log").read_bytes())
    failure = doc["failure"]
    assert (failure["kind"], failure["ending"]) == ("abrupt", "crash")
    assert failure["message"].startswith("A process its prompt started stopped without reporting an error")
    assert doc["verdict"]["title"].startswith("A process its prompt started ended")
    first = doc["suggestions"][0]
    assert first["title"] == "Find out what ended the process" and "ComfyUI itself lived on" in first["try"]
    # a native fault ctypes raised in a node, then "Prompt executed": read as before, not as a process it started
    raised = "\n".join(
        [
            "got prompt",
            "!!! Exception during processing !!! exception: access violation reading 0xFFFFFFFFFFFFFFFF",
            "Traceback (most recent call last):",
            '  File "C:\\ComfyUI\\execution.py", line 317, in execute',
            "OSError: exception: access violation reading 0xFFFFFFFFFFFFFFFF",
            "Prompt executed in 3.20 seconds",
        ]
    )
    assert explain_log(raised)["failure"]["message"].startswith("ComfyUI stopped without reporting an error")
    # a crash with a failure after it is not what the paste is about
    after = "Segmentation fault (core dumped)\nPrompt executed in 1.0 seconds\nValueError: bad value\n"
    assert kind_and_ending(after) == ("other", None)


def test_a_run_whose_got_prompt_is_above_the_paste_that_stops_mid_decode():
    # tritant/ComfyUI_MiniMax_H3_Extender#31: sampled, then the VAE requested for the final decode; the log stops
    log = (LOGS / "ComfyUI_MiniMax_H3_Extender31_final_decode_lockup_console.log").read_bytes()
    doc = explain_log(log)
    assert (doc["failure"]["kind"], doc["failure"]["ending"], doc["failure"]["stage"]) == (
        "abrupt",
        "log-stops",
        "vae-decode",
    )
    # one that stops at a library's error line stopped at that error
    cut = log.decode() + "\nCUDA error: an illegal memory access was encountered\n"
    assert kind_and_ending(cut) == ("other", None)
    # but a paste that stops at ComfyUI's own retry of that decode in tiles is about the retry (raylight#48)
    assert kind_and_ending(text("fallback_only_wan_vae_tiled.log")) == (None, None)


@pytest.mark.parametrize(
    "line",
    [
        # runpod-workers/worker-comfyui's handler.py when its ComfyUI no longer answers, in its log and its JSON reply
        "worker-comfyui - ComfyUI server (127.0.0.1:8188) not reachable after multiple retries",
        '{"error": "ComfyUI server (127.0.0.1:8188) not reachable after multiple retries"}',
    ],
)
def test_a_serverless_worker_that_found_comfyui_gone(line: str):
    assert kind_and_ending(line) == ("abrupt", "unreachable")


def test_the_aki_launchers_crash_analysis_names_an_access_violation():
    # Comfy-Org/ComfyUI#5739: the Chinese launcher's words for the exit code ("系统退出代码名称: ACCESS_VIOLATION")
    log = (LOGS / "ComfyUI5739_flux_access_violation_launcher_oneline.log").read_bytes()
    assert kind_and_ending(log) == ("abrupt", "crash")


def test_a_start_ups_error_does_not_end_the_prompt_that_ran_after_it():
    # Comfy-Org/ComfyUI#8489: the Manager's registry fetch failed at start-up (a DNS error); a prompt then began
    # loading its checkpoint and the console stops
    log = (LOGS / "ComfyUI8489_desktop_no_response_ends_after_attention_console.log").read_bytes()
    assert kind_and_ending(log) == ("abrupt", "log-stops")
    # but an OOM of a prompt whose end is in the paste is what the paste is about (wanvideowrapper#1234)
    assert kind_and_ending(text("wanvideowrapper1234_5090_got_oom_then_reload_console.log")) == ("vram", None)


def test_a_crash_ctypes_raised_in_a_node_names_that_node():
    # gokayfem/ComfyUI_VLM_nodes#106: the error report's node, its message ctypes' "access violation"
    doc = explain_log((LOGS / "ComfyUI_VLM_nodes106_llava_access_violation_oserror_report.log").read_bytes())
    failure = doc["failure"]
    assert (failure["kind"], failure["ending"], failure["node"]["class_type"]) == (
        "abrupt",
        "crash",
        "LLavaSamplerSimple",
    )


def test_an_errors_wording_before_the_console_closed_is_what_to_explain():
    # Comfy-Org/ComfyUI#6770: Python "can't open file ... main.py: [Errno 2] No such file or directory", then
    # the portable build's pause
    log = (LOGS / "ComfyUI6770_portable_main_py_missing_console.log").read_bytes()
    failure = explain_log(log)["failure"]
    assert failure["kind"] == "other" and "No such file or directory" in failure["message"]
    # a crash after such a line is still the crash
    assert kind_and_ending("[ERROR] could not load a pack\nSegmentation fault (core dumped)\n") == ("abrupt", "crash")


def test_a_native_crash_after_the_prompt_finished_is_how_comfyui_ended_between_prompts():
    # OrsoEric/HOWTO-ComfyUI (a committed note's console, TheRock ROCm on Windows): "Prompt executed in 214.23
    # seconds", then Windows' crash handler's "Exception Code: 0xC0000005" and a native stack
    doc = explain_log((LOGS / "OrsoEric_HOWTO-ComfyUI_qwen_image_access_violation.log").read_bytes())
    failure = doc["failure"]
    assert (failure["kind"], failure["ending"]) == ("abrupt", "crash")
    assert doc["verdict"]["title"] == "ComfyUI ended between prompts"
    # the allocator among the stack's frames (?allocate@DefaultCPUAllocator@c10@@...) is where it crashed, not memory
    # running out: a frame is a function's name, never an error's words
    frame = "0x00007FFAD0F10CB9, F:\\x\\torch\\lib\\c10.dll(0x00007FFAD0F00000) + 0x10CB9 byte(s), ?allocate@DefaultCPUAllocator@c10@@UEAA"
    assert explain_log(frame)["failure"] is None
    assert (
        explain_log("DefaultCPUAllocator: not enough memory: you tried to allocate 2359296 bytes.")["failure"]["kind"]
        == "system-ram"
    )
    # a console closed after a finished prompt is still no failure (the user closed it)
    assert (
        explain_log("got prompt\nPrompt executed in 3.1 seconds\nPress any key to continue . . .\n")["failure"] is None
    )


def test_a_memory_error_the_dying_process_printed_after_its_crash_says_what_ran_out():
    # Panchovix/stable-diffusion-webui-reForge#333 (ComfyUI's backend in reForge): torch's abort handler, then the
    # memory monitor's thread failing in cudaMemGetInfo with "CUDA error: out of memory" — no client's lost server
    name = "Panchovix-stable-diffusion-webui-reForge333_hires_vram_leak_memmon_cuda_oom.log"
    doc = explain_log((LOGS / name).read_bytes())
    assert doc["failure"]["kind"] == "vram" and not doc["failure"]["abrupt"]
    # a client's traceback after its server died is still the death (the rule this leaves alone)
    died = "Segmentation fault (core dumped)\nTraceback (most recent call last):\n"
    died += '  File "/home/u/krita/client.py", line 80, in poll\n    r = s.get(url)\n'
    died += "ConnectionRefusedError: [Errno 111] Connection refused\n"
    assert explain_log(died)["failure"]["abrupt"]


def test_cmds_pause_says_windows_and_the_advice_looks_there():
    # lllyasviel/stable-diffusion-webui-forge#1382 (its backend's words are ComfyUI's): "retrying with tiled VAE
    # decoding", then cmd's "Press any key to continue . . ." and nothing else of the machine
    name = "lllyasviel-stable-diffusion-webui-forge1382_fatal_memory_allocation_failure_vae_press_any_key.log"
    doc = explain_log((LOGS / name).read_bytes())
    assert doc["failure"]["abrupt"] and doc["machine"]["os"] == "Windows"
    assert "Event Viewer" in doc["suggestions"][0]["try"]  # not journalctl on a Windows machine
    assert [f["kind"] for f in doc["fallbacks"]] == ["tiled-vae-decode"]
    # cmd's pause in Chinese alone says Windows too (forge#549); another program's "press enter" does not
    doc = explain_log("Loading weights [8421598e93] from E:\\m\\AnythingXL_xl.safetensors\n请按任意键继续. . .\n")
    assert doc["machine"]["os"] == "Windows"
    assert explain_log("got prompt\nRequested to load Flux\nPress Enter to continue...\n")["machine"]["os"] != "Windows"


def test_a_paste_that_stops_mid_run_is_not_said_to_be_an_end():
    # round az (nunchaku-ai/ComfyUI-nunchaku#776): five lines from "got prompt" to a text encoder's load, no error, no
    # kill, no exit; the thread is about a wrong image, not a crash. The reader cannot tell a stop from a cut paste,
    # so it says both, and the step to check for a kill is conditional
    doc = explain_log(text("nunchaku776_zimage_corrupt_noerror.log"))
    assert doc["failure"]["kind"] == "abrupt" and doc["verdict"]["title"] == "The log stops mid-run"
    assert doc["failure"]["message"].startswith("The log stops mid-run without an error (ComfyUI stopped there, or")
    first = doc["suggestions"][0]
    assert (first["id"], first["title"]) == ("find-who-ended-it", "If ComfyUI stopped there: find out what ended it")
    # a log that shows its end is still an end: a segfault's line, a shell's "Killed"
    assert explain_log("Segmentation fault (core dumped)\n")["verdict"]["title"].startswith("ComfyUI ended mid-run")
    killed = explain_log("got prompt\nRequested to load SDXL\nKilled\n")
    assert killed["failure"]["kind"] == "system-ram" and not killed["failure"]["message"].startswith("The log stops")


def test_a_paste_that_stops_after_a_nodes_printed_error_is_that_error():
    # round ba (TTPlanetPig/Comfyui_JC2#22): a captioning node prints "Error loading model: cannot import name
    # 'shard_checkpoint' ..." (a transformers too new), tries again with the same words, and the paste stops after
    # its next lines ("Free VRAM: 22.38 GB"): the error it printed is the log's failure, not a stop of unknown cause
    doc = explain_log(text("jc2_shard_checkpoint_import_console.log"))
    assert doc["failure"]["kind"] == "other" and "cannot import name 'shard_checkpoint'" in doc["failure"]["message"]
    # ... but an error line that work followed (a model loaded, a sampler ran) is not where the paste stops
    worked = "got prompt\nError loading model: cannot import name 'x' from 'y'\nRequested to load SDXL\n"
    worked += "loaded completely 9.5 4897.05 True\n" + " 45%|####5     | 9/20 [00:02<00:02,  4.1it/s]\n"
    assert explain_log(worked)["failure"]["kind"] == "abrupt"


def test_a_request_a_server_answered_is_not_a_run_cut_short():
    # round ba (yr-zh/text2image, a committed comfyui.log): a Flask service runs ComfyUI's code per request — the
    # sampler's bar, the VAE's load, then werkzeug's '"POST /api/v1/images/text2img HTTP/1.1" 200 -': the log ends
    # after the answer, so nothing was cut mid-run
    doc = explain_log(text("zh_api_server_flux_runs_ok.log"))
    assert doc["failure"] is None
    # the same tail without its last answer is a run the log stops in (the answers above it came before its work)
    whole = text("zh_api_server_flux_runs_ok.log")
    assert explain_log(whole.rstrip("\n").rsplit("\n", 1)[0])["failure"]["kind"] == "abrupt"
    # uvicorn's words for the answer
    last = whole.rstrip("\n").rsplit("\n", 1)[1]
    uvicorn = whole.replace(last, 'INFO:     127.0.0.1:38924 - "POST /generate HTTP/1.1" 200 OK')
    assert explain_log(uvicorn)["failure"] is None
    # not an answer: one before an error line the log then shows, one while a sampler's bar still runs, an upload's
    error = whole + "Error loading model: cannot import name 'x' from 'y'\n"
    assert explain_log(error)["failure"]["kind"] == "other"
    mid = (
        "got prompt\nRequested to load Flux\nloaded completely 9.5 4897.05 True\n 45%|####5     | 9/20 [00:09<00:11]\n"
    )
    for answer in ('"POST /api/v1/images/text2img HTTP/1.1" 200 -', '"POST /upload/image HTTP/1.1" 200 -'):
        assert explain_log(mid + f"127.0.0.1 - - [02/Nov/2024 09:43:43] {answer}\n")["failure"]["kind"] == "abrupt"
    done = "got prompt\nRequested to load Flux\nloaded completely 9.5 4897.05 True\n100%|##########| 20/20\n"
    assert (
        explain_log(done + '127.0.0.1 - - [02/Nov/2024 09:43:43] "POST /upload/image HTTP/1.1" 200 -\n')["failure"][
            "kind"
        ]
        == "abrupt"
    )
