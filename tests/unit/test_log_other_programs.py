"""Logs of the programs beside ComfyUI on its PyTorch stack — AUTOMATIC1111 and Forge, notebooks on Colab and Kaggle,
containers and clusters, launchers, DirectML, Intel's XPU — as users paste them: how each reports an end, a memory
failure and what only sounds like one. Held-out rounds bd to cb (tests/fixtures/logs/SOURCES.md cites each thread)."""

from __future__ import annotations

import pytest
from helpers import FIXTURES

from memprobe.judging.failures import classify_failure
from memprobe.logs.explain import explain_log
from memprobe.output.markdown import explain_md as render_report_md

LOGS = FIXTURES / "logs"


def test_a_launchers_child_ended_by_a_windows_crash_code_crashed():
    # bmaltais/kohya_ss#2977: accelerate's CalledProcessError for flux_train.py, "returned non-zero exit status
    # 3221225477" (0xC0000005, an access violation): the child crashed, no exception of its own
    doc = explain_log((LOGS / "kohya_flux_16gb_ram_access_violation_3221225477.log").read_bytes())
    assert doc["failure"]["kind"] == "abrupt" and doc["failure"]["ending"] == "crash"
    assert doc["suggestions"][0]["id"] == "find-who-ended-it" and "Event Viewer" in doc["suggestions"][0]["try"]
    # a status that is no crash code stays the launcher's error (a script's own exit 1)
    doc = explain_log(
        "subprocess.CalledProcessError: Command '['python.exe', 'train.py']' returned non-zero exit status 1."
    )
    assert doc["failure"]["kind"] == "other"


def test_a_line_that_says_it_warns_is_not_the_failure():
    # AbdBarho/stable-diffusion-webui-docker#296: "Warning: caught exception 'Found no NVIDIA driver ...', memory
    # monitor disabled", and the web UI went on loading its model (the stored copy ends mid-line there)
    doc = explain_log((LOGS / "abdbarho_docker_autocpu_exits_loading_weights.log").read_bytes())
    assert doc["failure"] is None
    # the same words without the warning's own first word are the failure of a paste
    assert explain_log("Found no NVIDIA driver on your system.")["failure"]["kind"] == "other"


def test_the_web_uis_line_above_a_cut_traceback_names_its_type():
    # AUTOMATIC1111's errors.display prints what it was doing and the exception's type above the traceback; where a
    # paste cuts the traceback before its last line, that type still says what was raised
    # (serpotapov/stable-diffusion-portable#5; lllyasviel/stable-diffusion-webui-forge#202)
    for name, stage in (
        ("sd_portable_load_model_outofmemoryerror.log", None),
        ("lllyasviel-stable-diffusion-webui-forge202_xyz_plot_third_xl_checkpoint_oom.log", "load"),
    ):
        doc = explain_log((LOGS / name).read_bytes())
        failure = doc["failure"]
        assert (failure["kind"], failure["exception_type"], failure["stage"]) == ("vram", "OutOfMemoryError", stage)
        assert failure["evidence"][0]["text"].endswith(": OutOfMemoryError")
        assert "find-the-error" not in [s["id"] for s in doc["suggestions"]]
    # Forge's AcceleratorError, said so, is not memory by its name alone (Haoming02/sd-webui-forge-classic#659)
    doc = explain_log(
        (LOGS / "Haoming02-sd-webui-forge-classic659_neo_xyz_plot_acceleratorerror_setup_conds.log").read_bytes()
    )
    assert (doc["failure"]["kind"], doc["failure"]["exception_type"]) == ("other", "AcceleratorError")


def test_a_web_uis_checkpoint_load_is_a_run_a_ctrl_c_ends():
    # TheLastBen/fast-stable-diffusion#1404 on Colab: "Loading weights [2a208a7ded] from ...", then "^C"
    doc = explain_log((LOGS / "fast_sd_colab_inpainting_ckpt_ctrl_c.log").read_bytes())
    assert (doc["failure"]["kind"], doc["failure"]["ending"], doc["failure"]["stage"]) == ("abrupt", "stopped", "load")


def test_torchs_output_size_error_is_the_failure_behind_a_retry_it_calls_oom():
    # Rudrabha/Wav2Lip#705: "Recovering from OOM error; New batch size: 4" for any error in its face detection; the
    # error was torch's "Calculated output size: (64x0x0). Output size is too small" (an image too small), not memory
    doc = explain_log((LOGS / "wav2lip_recovering_from_oom_face_detection_too_small.log").read_bytes())
    assert doc["failure"]["kind"] == "other" and "Output size is too small" in doc["failure"]["message"]


@pytest.mark.parametrize(
    ("name", "kind", "ending"),
    [
        # s9roll7/animatediff-cli-prompt-travel#43, Mikubill/sd-webui-controlnet#116: Colab's "^C" after a model's load
        ("animatediff_cli_colab_ram_ctrl_c.log", "abrupt", "stopped"),
        ("sdwebui_controlnet_colab_canny_ctrl_c.log", "abrupt", "stopped"),
        # googlecolab/colabtools#1718: Jupyter's "KernelRestarter: restarting kernel" in Colab's runtime log
        ("colab_stylegan_tcmalloc_large_alloc_kernel_restart.log", "abrupt", "backend-exit"),
        # kserve/kserve#2290: a pod status' "exitCode: 137" under its container's last log lines
        ("kserve_triton_bert_500mi_limit_exitcode137.log", "cgroup-limit", "killed"),
        # C0untFloyd/roop-unleashed#162: "zsh: killed python run.py", then the resource tracker's leaked semaphores
        # (a warning after the kill does not replace it as the end)
        ("roop_unleashed_m2max_zsh_killed_swap.log", "system-ram", "killed"),
        # ynagatomo/ImgGenSD2#6: Xcode's "Message from debugger: Terminated due to memory issue" (macOS ended the app)
        ("imggensd2_macos_terminated_due_to_memory_issue.log", "system-ram", "memory-kill"),
    ],
)
def test_ends_other_programs_report(name, kind, ending):
    failure = explain_log((LOGS / name).read_bytes())["failure"]
    assert (failure["kind"], failure["ending"]) == (kind, ending)


def test_other_programs_wordings_of_a_failure_and_of_none():
    # AiuniAI/Unique3D#55: ONNX Runtime's status with its exception's name cut off is a failure (its arena's own cap:
    # another error, as the phrasings read it)
    assert (
        explain_log((LOGS / "unique3d_onnx_bfcarena_available_smaller.log").read_bytes())["failure"]["kind"] == "other"
    )
    # pythoninoffice/amd_webui#4: diffusers "Cannot initialize model with low cpu memory usage ... Defaulting to
    # `low_cpu_mem_usage=False`": a fallback it went on with, no failure
    assert explain_log((LOGS / "amd_webui_low_cpu_mem_usage_accelerate_warning.log").read_bytes())["failure"] is None


def test_an_xpu_block_of_4_gib_refused_with_memory_free_is_the_cards_block_limit():
    # torch's own XPU backend on an Arc A770 (16 GB): "XPU out of memory. Tried to allocate 4.00 GiB ... of which
    # 15.11 GiB is free": the Alchemist cards' largest block, not VRAM running out (a triton-lang test run)
    doc = explain_log((LOGS / "xpu_triton_a770_4gb_alloc_limit_oom.log").read_bytes())
    assert doc["failure"]["kind"] == "other" and doc["suggestions"][0]["id"] == "smaller-allocation"
    # the same message for a block under 4 GiB is VRAM
    one = "torch.OutOfMemoryError: XPU out of memory. Tried to allocate 3.00 GiB. GPU 0 has a total capacity of 15.11 GiB of which 1.20 GiB is free."
    assert explain_log(one)["failure"]["kind"] == "vram"


def test_directmls_out_of_memory_is_the_gpus():
    # huggingface/diffusers#791: ONNX Runtime's DirectML provider at its session's start, "...\DmlExecutionProvider\
    # src\BucketizedBufferAllocator.cpp(122)...: Exception(1) 800 7000E to enough memory resources ..." (as the thread
    # stores it: E_OUTOFMEMORY, "Not enough memory resources are available"): DirectML's words for the GPU's memory,
    # not Windows' error 8 of system memory, which it shares
    raw = (LOGS / "diffusers_dml_onnx_8007000E_not_enough_memory.log").read_text(encoding="utf-8").splitlines()
    line = next(x for x in raw if "BucketizedBufferAllocator" in x)
    assert classify_failure(None, line) == "vram"
    assert (
        classify_failure(
            None, "Error: 0x8007000e Not enough memory resources are available to complete this operation."
        )
        != "vram"
    )


def test_a_memory_error_named_above_a_cut_traceback_is_the_cause_of_pythons_buffer_complaint():
    # TheLastBen/fast-stable-diffusion#1565 on Colab: "SystemError: deallocated bytearray object has exported
    # buffers", then "loading stable diffusion model: MemoryError" above a traceback cut in torch.load
    doc = explain_log((LOGS / "colab_fastsd_model_load_memoryerror.log").read_bytes())
    failure = doc["failure"]
    assert (failure["kind"], failure["exception_type"], failure["stage"]) == ("system-ram", "MemoryError", "load")
    ram = next(s for s in doc["suggestions"] if s["id"] == "pagefile")
    assert "with 'MemoryError'" in ram["why"]  # (its type alone quoted, where the traceback says no more)
    # on Colab (its /content/ folder), where no swap can be added: a runtime with more RAM, or less loaded at once
    assert ram["title"] == "Use a runtime with more RAM" and "High-RAM" in ram["try"] and "swap file" not in ram["try"]
    # and the IPEX card's block limit where the message names no free memory (intel/intel-extension-for-pytorch#846)
    doc = explain_log((LOGS / "ipex_a770_xpu_oom_4gib_single_alloc.log").read_bytes())
    assert doc["failure"]["kind"] == "other" and doc["suggestions"][0]["id"] == "smaller-allocation"


def test_a_notebooks_bare_end_is_checked_on_its_ram_gauge():
    # AUTOMATIC1111/stable-diffusion-webui#2366 on Colab: "Loading weights [06c50424] from /content/...", then "^C":
    # there is no journal to read on a hosted notebook; its RAM gauge says whether RAM ran out
    step = explain_log((LOGS / "a1111_colab_7gb_ckpt_ctrl_c_ram.log").read_bytes())["suggestions"][0]
    assert step["id"] == "find-who-ended-it" and "RAM gauge" in step["try"] and "journalctl" not in step["try"]
    # the same end on a machine of one's own: its kernel's log
    step = explain_log((LOGS / "Lemmy_mod_tools_tjthejuggler_stopped_midprompt_console.log").read_bytes())[
        "suggestions"
    ]
    assert not step or "RAM gauge" not in step[0]["try"]


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        # Slurm's "Detected 1 oom-kill event(s) in StepId=191.batch cgroup" (a job's memory limit)
        ("arjuna_slurm_cgcnn_cgroup_oom_kill.log", "cgroup-limit"),
        # the kernel's stack of an OOM kill inside a memory cgroup, "mem_cgroup_out_of_memory" (NVIDIA/DALI, dmesg)
        ("dali_multigpu_train_dmesg_mem_cgroup_oom.log", "cgroup-limit"),
        # a challenge's evaluation container: "The container was killed as it exceeded the memory limit of 4g."
        ("flare_grand_challenge_container_memory_limit_4g.log", "cgroup-limit"),
        # "Killed" in a step of "docker build" (" ---> Running in a2fc04a918b0"): the build container's memory
        ("deeptradingagent_docker_build_preprocess_killed_137.log", "cgroup-limit"),
        # Replicate's cog guesses "It might have run out of memory?": exit -9 (its SIGKILL) is the platform's limit,
        # exit 2 an ordinary error
        ("gfpgan_replicate_prediction_failed_exitcode_minus9.log", "cgroup-limit"),
        ("cog_replicate_fatalworker_exitcode2.log", "other"),
        # the dynamic loader's "cannot allocate memory in static TLS block" is a library's load, not memory
        ("instill_triton_torch_libgomp_static_tls.log", "other"),
    ],
)
def test_container_and_platform_limits_and_what_only_sounds_like_them(name, kind):
    assert explain_log((LOGS / name).read_bytes())["failure"]["kind"] == kind


@pytest.mark.parametrize(
    "name",
    [
        # torch's DataLoader in a container: "ERROR: Unexpected bus error encountered in worker. This might be caused
        # by insufficient shared memory (shm)." (ultralytics#7010's AutoBatch; a logger's level, no node, before it)
        "ultralytics_docker_autobatch_bus_error_shm.log",
        # "... is killed by signal: Bus error. It is possible that dataloader's workers are out of shared memory."
        # above "unable to write to file </torch_739_...>: No space left on device (28)" (logicalclocks/hopsworks#1557)
        "hopsworks_dataloader_dev_shm_no_space_28.log",
        # Ray's object store: "System memory request exceeds memory available in /dev/shm" (gpustack#5014)
        "gpustack_vllm_ascend_raylet_dev_shm_too_small.log",
    ],
)
def test_a_full_dev_shm_is_told_to_grow_not_to_free_the_disk(name):
    doc = explain_log((LOGS / name).read_bytes())
    assert doc["failure"]["kind"] == "disk" and doc["failure"]["node"]["class_type"] is None
    first = doc["suggestions"][0]
    assert first["id"] == "grow-shared-memory" and "--shm-size" in first["try"] and "num_workers" in first["try"]
    assert "/dev/shm" in render_report_md(doc)  # the kernel's path, no one's: the shareable report keeps it


def test_a_disk_failure_with_no_drive_measured_names_the_output_drive_once():
    doc = explain_log("OSError: [Errno 28] No space left on device")
    assert doc["suggestions"][0]["try"].startswith("Free space on the output drive (keep")


@pytest.mark.parametrize(
    ("exception_type", "message", "kind"),
    [
        # vLLM: no GPU memory left for its KV cache within gpu_memory_utilization (vllm-project/vllm#10439; v1's words)
        ("ValueError", "No available memory for the cache blocks. Try increasing `gpu_memory_utilization`", "vram"),
        (
            "ValueError",
            "To serve at least one request with the models's max seq len (32768), (4.50 GiB KV cache is needed, which "
            "is larger than the available KV cache memory (4.47 GiB).",
            "vram",
        ),
        # Ray's memory monitor killing a task: its OutOfMemoryError is the node's RAM, not a GPU's
        ("ray.exceptions.OutOfMemoryError", "Task was killed due to the node running low on memory.", "system-ram"),
    ],
)
def test_serving_frameworks_say_which_memory(exception_type, message, kind):
    assert classify_failure(exception_type, message) == kind


def test_onnx_runtimes_arena_with_no_provider_named_is_the_gpus():
    # iperov/DeepFaceLive: "BFCArena::AllocateRawInternal Failed to allocate memory for requested buffer of size
    # 150994944" alone; the maintainer: "not enough vram"
    doc = explain_log((LOGS / "deepfacelive_onnx_bfcarena_alloc_fail.log").read_bytes())
    assert doc["failure"]["kind"] == "vram" and doc["suggestions"]


@pytest.mark.parametrize(
    ("name", "kind", "ending"),
    [
        # Slurm's older words, "slurmstepd: error: Detected 2 oom-kill event(s) in step 3756240.batch cgroup."
        # (PyBNF), and its newer, "Detected 1 oom_kill event in StepId=xxx.batch" (SSDNeRF)
        ("pybnf_slurm_oom_kill_event_oneliner.log", "cgroup-limit", "cgroup-kill"),
        ("slurm_ssdnerf_oom_kill_event_stepid.log", "cgroup-limit", "cgroup-kill"),
        # Flyte's pod "terminated with exit code (137)": the pod's memory limit (flyteorg/flyte, 200Mi by default)
        ("flyte_demo_pod_exit_137_no_message.log", "cgroup-limit", "killed"),
        # zsh's job report "zsh: killed     mflux-generate-flux2 ..." (filipstrand/mflux#322), the resource tracker's
        # warning below it no crash of its own
        ("mflux_flux2_klein_zsh_killed.log", "system-ram", "killed"),
        # gunicorn's "Worker (pid:7) was sent SIGKILL! Perhaps out of memory?": a kill, not a GPU's memory
        ("whisper_asr_webservice_gunicorn_worker_sigkill.log", "system-ram", "killed"),
        # s6-overlay's "Service exited with code 256 (by signal 4)": SIGILL, a crash (a CPU without AVX)
        ("home_assistant_whisper_addon_signal4_no_avx.log", "abrupt", "crash"),
    ],
)
def test_how_schedulers_supervisors_and_shells_report_a_kill(name, kind, ending):
    failure = explain_log((LOGS / name).read_bytes())["failure"]
    assert (failure["kind"], failure["ending"]) == (kind, ending)


@pytest.mark.parametrize(
    ("name", "kind", "first"),
    [
        # torch < 1.5's CPU allocator: "[enforce fail at CPUAllocator.cpp:56] posix_memalign(...) == 0. 12 vs 0"
        ("pyg_tudataset_dblp_onehot_posix_memalign.log", "system-ram", None),
        # "The paging file is to small for this operation to complete", as its poster retyped it (raster-vision)
        ("rastervision_paging_file_dll_oneliner.log", "commit-limit", "pagefile"),
        # older torch's "unable to write to file </torch_74396_2983595444>" with no reason: /dev/shm full
        ("effdet_unable_to_write_torch_shm_file.log", "disk", "grow-shared-memory"),
        # Boltz's "WARNING: ran out of memory, skipping batch" (its catch of torch's CUDA OOM): an input lost to VRAM
        ("boltz_3000_residues_ran_out_of_memory_skipping_batch.log", "vram", None),
    ],
)
def test_older_and_other_programs_words_for_memory_running_out(name, kind, first):
    doc = explain_log((LOGS / name).read_bytes())
    assert doc["failure"]["kind"] == kind and doc["suggestions"]
    assert first is None or doc["suggestions"][0]["id"] == first


def test_a_report_that_quotes_its_frames_keeps_the_error_below_the_closing_quote():
    # Anjok07/ultimatevocalremovergui: 'Traceback Error: "  File ...' ... '"', then 'MemoryError: "Unable to allocate
    # 95.9 MiB ..."': the error of that traceback, not a second failure after a cut one
    doc = explain_log((LOGS / "uvr_vr_istft_memoryerror_report.log").read_bytes())
    assert doc["failure"]["kind"] == "system-ram" and not doc["consequences"]
    assert "Unable to allocate 95.9 MiB" in doc["failure"]["message"]


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        # Microsoft's C++ library words std::bad_alloc "bad allocation" (onnxruntime's perf test in a 32-bit process)
        ("onnxruntime_x86_perf_test_vgg16_bad_allocation.log", "system-ram"),
        # ... and beside CUDA's own code it stays the GPU's (graphdeco-inria/gaussian-splatting)
        ("gaussian_splatting_distcuda2_bad_allocation_cudaerrormemoryallocation.log", "vram"),
        # OpenVINO's GPU plugin: "... reduce memory consumption (...) to avoid CL_OUT_OF_RESOURCES exception" (an iGPU)
        ("openvino_igpu_llama2_cl_out_of_resources.log", "vram"),
    ],
)
def test_runtimes_beside_torch_say_which_memory(name, kind):
    doc = explain_log((LOGS / name).read_bytes())
    assert doc["failure"]["kind"] == kind and doc["suggestions"]


def test_a_vaes_own_progress_bar_places_the_failure_in_its_decode():
    # PiSA-SR's tiled VAE: "[Tiled VAE]: Executing Decoder Task Queue:   9%|..." then torch's CUDA out of memory
    doc = explain_log((LOGS / "pisa_sr_tiled_vae_decoder_oom_4090.log").read_bytes())
    assert (doc["failure"]["kind"], doc["failure"]["stage"]) == ("vram", "vae-decode")
    assert doc["suggestions"][0]["id"] in {"tiled-decode", "tiled-decode-own"}
    # a bar at its end is a finished decode: what failed after it is not placed there
    done = "[Tiled VAE]: Executing Decoder Task Queue: 100%|██████████| 1476/1476 [00:10<00:00, 128.52it/s]\n"
    assert explain_log(done + "RuntimeError: CUDA error: out of memory")["failure"]["stage"] != "vae-decode"


def test_a_notice_that_the_work_goes_on_slower_is_no_failure():
    # deepbeepmeep/Wan2GP: "Unable to pin data of '...' to reserved RAM as there is no reserved RAM left. Transfer speed
    # from RAM to VRAM will may be slower." (the maintainer: only a warning, the LoRAs still apply)
    assert explain_log((LOGS / "wan2gp_ltx2_lora_pin_reserved_ram_warning.log").read_bytes())["failure"] is None
    # deepbeepmeep/Wan2GP#605: the older wording, without the "slower": "Unable pin data of '...' to reserved RAM as
    # there is no reserved RAM left"
    assert explain_log((LOGS / "wan2gp_605_no_reserved_ram_left.log").read_bytes())["failure"] is None


@pytest.mark.parametrize(
    ("name", "kind", "ending"),
    [
        # ncnn's Vulkan: "vkAllocateMemory failed -2" (VK_ERROR_OUT_OF_DEVICE_MEMORY; REAL-Video-Enhancer's RIFE)
        ("real_video_enhancer_ncnn_vkallocatememory_failed.log", "vram", None),
        # DeepSpeed's launcher: "... exits with return code = -11" (SIGSEGV: a crash; its -9 is SIGKILL's)
        ("diffusion_pipe_qwen_image_sigkill_minus11.log", "abrupt", "crash"),
        ("deepspeed_chat_opt125m_colab_return_code_minus9.log", "system-ram", "killed"),
        # a user's own "killed;" under the epoch's bar (PNI's training)
        ("pni_anomaly_training_epoch_end_killed.log", "system-ram", "killed"),
    ],
)
def test_a_gpu_buffer_a_launchers_crash_code_and_a_typed_kill(name, kind, ending):
    doc = explain_log((LOGS / name).read_bytes())
    assert (doc["failure"]["kind"], doc["failure"].get("ending")) == (kind, ending) and doc["suggestions"]


def test_frames_a_poster_left_out_do_not_cut_the_traceback():
    # huggingface/diffusers' SDXL fine-tuning on Colab: its frames, three lines of "...", then torch's CUDA out of memory
    doc = explain_log((LOGS / "diffusers_sdxl_finetune_map_embeddings_cuda_oom.log").read_bytes())
    assert doc["failure"]["kind"] == "vram" and not doc["consequences"] and doc["suggestions"]


def test_the_web_uis_own_refusal_for_want_of_gpu_memory_is_vram():
    # AUTOMATIC1111's split attention: "Not enough memory, use lower resolution (max approx. 1472x1472). Need: 3.7GB
    # free, Have:3.1GB free" (sd-webui-animatediff)
    doc = explain_log((LOGS / "sdwebui_animatediff_not_enough_memory_lower_resolution.log").read_bytes())
    assert doc["failure"]["kind"] == "vram" and doc["suggestions"]


def test_a_shell_that_finds_no_such_program_is_the_failure():
    # Sanster/IOPaint: PowerShell's "iopaint : The term 'iopaint' is not recognized as the name of a cmdlet, ..."
    doc = explain_log((LOGS / "iopaint_powershell_command_not_recognized.log").read_bytes())
    assert doc["failure"]["kind"] == "other"
    assert explain_log("'python' is not recognized as an internal or external command,")["failure"]["kind"] == "other"
