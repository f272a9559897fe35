"""Logs of the programs beside ComfyUI on its PyTorch stack — AUTOMATIC1111 and Forge, notebooks on Colab and Kaggle,
containers and clusters, launchers, DirectML, Intel's XPU — as users paste them: how each reports an end, a memory
failure and what only sounds like one. Held-out rounds bd to cc (tests/fixtures/logs/SOURCES.md cites each thread)."""

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


def test_physx_gpu_allocator_is_vram_and_its_warnings_are_not_the_failure():
    # Improbable-AI/walk-these-ways#20: "PxgCudaDeviceMemoryAllocator fail to allocate memory 339738624 bytes!! Result
    # = 2" (cudaErrorMemoryAllocation), then PhysX's cascade; the allocator's name is not a node's class
    doc = explain_log((LOGS / "walk_these_ways_pxg_cuda_device_memory_allocator_fail.log").read_bytes())
    assert doc["failure"]["kind"] == "vram" and doc["failure"]["node"]["class_type"] is None and doc["suggestions"]
    # LeCAR-Lab/ASAP#35: CUDA errors, "PxgCudaMemoryAllocator.cpp (59) : warning : Failed to allocate pinned memory.",
    # then a segfault: the warning is no RAM failure, the process crashed
    doc = explain_log((LOGS / "asap_isaacgym_hoi_4000_envs_physx_segfault.log").read_bytes())
    assert (doc["failure"]["kind"], doc["failure"]["ending"]) == ("abrupt", "crash")


def test_rays_vanished_worker_is_read_as_a_kill_and_its_disk_forecast_as_no_failure():
    # OpenRLHF/OpenRLHF#187: "Worker unexpectedly exits with a connection error code 2. End of file. There are some
    # potential root causes. (1) The process is killed by SIGKILL by OOM killer ..." (memory ran out, as in vLLM's thread)
    doc = explain_log((LOGS / "openrlhf_actor_dead_sigkill_docker_500g.log").read_bytes())
    assert doc["failure"]["kind"] == "system-ram" and doc["suggestions"]
    # ray-project/ray#36959: the raylet's "/tmp/ray/... is over 95% full ... Object creation will fail if spilling is
    # required": a warning at start-up, nothing failed
    assert explain_log((LOGS / "ray_file_system_monitor_tmp_over_95_full_warning.log").read_bytes())["failure"] is None


def test_the_browsers_failed_fetch_is_its_server_gone():
    # chaiNNer's popup, "An unexpected error occurred: TypeError: Failed to fetch", after its backend died upscaling
    # to 8K (chaiNNer-org/chaiNNer#1871); the same words alone in ComfyUI's frontend (Comfy-Org/ComfyUI#8483)
    for name in (
        "chainner_failed_to_fetch_backend_crash_8k_upscale.log",
        "ComfyUI8483_flux_failed_to_fetch_oneline.log",
    ):
        doc = explain_log((LOGS / name).read_bytes())
        assert (doc["failure"]["kind"], doc["failure"]["ending"]) == ("abrupt", "unreachable")
        assert doc["suggestions"][0]["id"] == "find-who-ended-it"


def test_macos_killed_9_gets_macos_advice():
    # invoke-ai/InvokeAI#2283: "invoke.sh: line 24: 10946 Killed: 9  .venv/bin/python ..." on an 8 GB M1 (macOS' bash
    # names the signal's number): no journalctl, no swap file to add
    doc = explain_log((LOGS / "invokeai_mac_m1_killed_9.log").read_bytes())
    assert doc["failure"]["kind"] == "system-ram" and doc["machine"]["os"] == "macOS"
    advice = doc["suggestions"][0]["try"]
    assert "memorystatus" in advice and "journalctl" not in advice and "swap file" not in advice


@pytest.mark.parametrize(
    ("name", "kind", "ending"),
    [
        # vosen/ZLUDA#306, Blender's Cycles on ZLUDA: "Out of memory in cuStreamCreate(&cuda_stream_, CU_STREAM_NON_BLOCKING)"
        ("zluda_blender_custreamcreate_out_of_memory.log", "vram", None),
        # Try/OpenGothic#53: Vulkan's "---crashlog(std::system_error(Out of device memory))---" on a 1 GB card
        ("opengothic_vulkan_out_of_device_memory.log", "vram", None),
        # NVlabs/instant-ngp#393: tiny-cuda-nn's "cudaMalloc(&rawptr, ...) failed with error out of memor" (cut)
        ("instant_ngp_testbed_cudamalloc_oom_70_images.log", "vram", None),
        # DLR-RM/BlenderProc#286: numpy's "OSError: Not enough free space to write 292626432 bytes" into /dev/shm
        ("blenderproc_dev_shm_not_enough_free_space.log", "disk", None),
        # pola-rs/polars#23173: Rust's allocator, "memory allocation of 2097152 bytes failed", then abort
        ("polars_sink_parquet_memory_allocation_failed.log", "system-ram", None),
        # ooolabdev/ooosplat#52: macOS' panic report, "Compressor Info: ... 100% of segments limit (BAD) with 12
        # swapfiles and LOW swap space"
        ("ooosplat_macos_watchdog_panic_low_swap.log", "system-ram", "memory-kill"),
        # yahoo/TensorFlowOnSpark#134: "Container killed by YARN for exceeding memory limits"
        ("tfos_yarn_container_killed_virtual_memory.log", "cgroup-limit", "cgroup-kill"),
        # catboost/catboost#1814: "slurmstepd: error: Exceeded job memory limit"
        ("catboost_slurm_exceeded_job_memory_limit.log", "cgroup-limit", "cgroup-kill"),
        # dask/dask-gateway#139: "Cluster ... stopped unexpectedly: Container stopped with exit code 137"
        ("dask_gateway_scheduler_exit137.log", "cgroup-limit", "killed"),
        # isl-org/Open3D#2109: coredumpctl's "Signal: 11 (SEGV)" ... "Process 9600 (python) of user 1000 dumped core."
        ("open3d_coredump_sigsegv_journal.log", "abrupt", "crash"),
        # catboost/catboost#491: glibc's Russian "Аварийный останов" (Aborted) after the training's first lines
        ("catboost_multiclass_abort_ru.log", "abrupt", "crash"),
    ],
)
def test_renderers_data_tools_and_schedulers_words_for_their_ends(name, kind, ending):
    doc = explain_log((LOGS / name).read_bytes())
    assert (doc["failure"]["kind"], doc["failure"].get("ending")) == (kind, ending)
    assert doc["suggestions"] or kind == "abrupt"


def test_cudnns_missing_library_is_the_failure_not_the_abort_after_it():
    # ufal/whisper_streaming#119, lenML/Speech-AI-Forge#139: "Could not load library libcudnn_ops_infer.so.8. Error:
    # ... cannot open shared object file", then "Aborted (core dumped)" (in Chinese: "已放弃 (核心已转储)")
    for name in (
        "whisper_streaming_libcudnn_ops_infer_aborted.log",
        "speech_ai_forge_faster_whisper_cudnn_core_dumped_zh.log",
    ):
        doc = explain_log((LOGS / name).read_bytes())
        assert doc["failure"]["kind"] == "other" and "libcudnn" in doc["failure"]["message"]
    # an abort with no such line before it stays a crash
    assert explain_log("Loading model\nAborted (core dumped)\n")["failure"]["kind"] == "abrupt"


@pytest.mark.parametrize(
    ("name", "kind", "ending"),
    [
        # Celery's pool worker ended by SIGKILL ("WorkerLostError('Worker exited prematurely: signal 9 (SIGKILL) ...')"):
        # the OOM killer's, most often (conda-incubator/conda-store#120); in docker compose's prefixed log
        # (JeffreyCA/spleeter-web#92), its container's limit
        ("conda_store_celery_worker_sigkill_docker_2gb.log", "system-ram", None),
        ("spleeter_web_celery_worker_sigkill_compose.log", "cgroup-limit", None),
        # open-runtimes#330, gunicorn's "WORKER TIMEOUT (pid:17)", then its own "... was sent SIGKILL! Perhaps out of memory?": a timeout
        ("open_runtimes_gunicorn_worker_timeout_sigkill.log", "other", None),
        # pytorch/pytorch#16979, an old torch's "DataLoader worker (pid 125) is killed by signal: Bus error." in a pod: its /dev/shm filled
        ("pytorch_dataloader_shm_bus_error_kubernetes.log", "disk", None),
        # ONNX Runtime's arena asked for "4547406516732812544" bytes (onnxruntime_backend#203): an overflowed size, nothing ran out
        ("triton_onnxruntime_bfc_arena_overflow_size.log", "other", None),
        # llama-cpp-python#254: "warning: failed to mlock ... Cannot allocate memory" (RLIMIT_MLOCK) and the model loads
        ("llama_cpp_python_mlock_warning_cannot_allocate.log", None, None),
        # llama.cpp#1813, ggml's "GGML_ASSERT: ...ggml.c:4411: ctx->mem_buffer != NULL" on a 1.9 GB machine (no node's class)
        ("llama_cpp_gpt4all_backend_ggml_assert_mem_buffer_null.log", "system-ram", None),
        # llama.cpp#1815, Metal's "buffer 'data' size 18300780544 is larger than buffer maximum of 17179869184": a size limit
        ("llama_cpp_metal_buffer_larger_than_maximum.log", "other", None),
        # ollama#9685: "llama runner process has terminated: signal: killed" (Go's words for SIGKILL)
        ("ollama_jetson_orin_gemma27b_runner_signal_killed.log", "system-ram", "killed"),
        # lmstudio-bug-tracker#1078: "(Exit code: 18446744072635810000). Unknown error.": a negative status read as 64 bits unsigned
        ("lmstudio_failed_to_load_unknown_exit_code.log", "abrupt", "crash"),
    ],
)
def test_servers_workers_and_local_llm_runtimes_words(name, kind, ending):
    failure = explain_log((LOGS / name).read_bytes())["failure"]
    if kind is None:
        assert failure is None
        return
    assert (failure["kind"], failure.get("ending"), failure["node"]["class_type"]) == (kind, ending, None)


@pytest.mark.parametrize(
    ("name", "kind", "ending"),
    [
        # Esri/arcgis-python-api#743: torch's "Caught RuntimeError in DataLoader worker process 0." above the "Original
        # Traceback" of what the worker raised, DefaultCPUAllocator's "can't allocate memory": the caught one is the cause
        ("arcgis_learn_dataloader_defaultcpuallocator.log", "system-ram", None),
        # ecmwf-lab/ai-models-graphcast#18: XLA's "Failed to allocate request for 2.99GiB ... on device ordinal 0"
        ("ai_models_graphcast_jax_resource_exhausted.log", "vram", None),
        # google-deepmind/weathernext#44, on a CPU: XLA's "RESOURCE_EXHAUSTED: Out of memory allocating 124867611608 bytes."
        ("graphcast_cpu_resource_exhausted_oneliner.log", "system-ram", None),
        # google-deepmind/weathernext#7: "Execution of replica 0 failed: RESOURCE_EXHAUSTED: Out of memory while trying
        # to allocate ...", under the rematerialization's warning
        ("graphcast_training_xla_rematerialization_bfc_oom.log", "vram", None),
        # NOAA-EMC/global-workflow#1361: slurmstepd's oom-kill event, then "srun: error: h19c54: task 300: Out Of Memory"
        ("gfs_global_workflow_gdasfcst_srun_oom.log", "cgroup-limit", "cgroup-kill"),
        # OSGeo/gdal#1761: libtiff's "Failed to allocate memory for ... array (0 elements of 8 bytes each)": an overflow
        ("gdal_translate_sparse_tiled_integer_overflow.log", "other", None),
        # yangxue0827/RotationDetection#56: "CUDA driver version is insufficient for CUDA runtime version" alone
        ("rotationdetection_training_cuda_driver_insufficient_oneliner.log", "other", None),
        # rigaya/NVEnc#439: NVENC's "nvEncOpenEncodeSessionEx: 10 (... unable to allocate enough memory ...)": the
        # session limit or the driver, in the threads that quote it
        ("nvencc_open_kernel_module_enc_session_oom.log", "other", None),
        # ant-media/Ant-Media-Server#939: FFmpeg's "Failed creating CUDA context for NVENC: 0x2" (CUDA_ERROR_OUT_OF_MEMORY)
        ("antmedia_nvenc_cuda_context_failed_0x2.log", "vram", None),
        # livepeer/go-livepeer#230: Go's "Error from ffmpeg: signal: killed"
        ("livepeer_video_segmenter_ffmpeg_signal_killed.log", "system-ram", "killed"),
        # fluent-ffmpeg#1299: "ffmpeg was killed with signal SIGSEGV": its child crashed
        ("fluent_ffmpeg_docker_killed_sigsegv.log", "abrupt", "crash"),
        # mlc-ai/mlc-llm#112: Adreno's "IOCTL_KGSL_GPUOBJ_ALLOC) failed: errno 12 Out of memory" (a phone's GPU)
        ("mlc_chat_android_adreno_kgsl_oom.log", "vram", None),
        # DaKanji#7: Android's "lowmemorykiller: Kill 'sh.eliza.pebble.kanji' (25702) ... to free 4223760kB rss"
        ("android_executorch_lowmemorykiller.log", "system-ram", "memory-kill"),
        # sieren/Homepoint#45: gcc's "fatal error: Killed signal terminated program cc1plus" on a Raspberry Pi
        ("rpi_esp_idf_cc1plus_killed.log", "system-ram", None),
        # torch2trt#661: an older TensorRT's "Requested amount of memory (150994944 bytes) could not be allocated"
        ("jetson_nano_torch2trt_requested_memory.log", "vram", None),
        # rknn-toolkit2#44: Rockchip's "failed to malloc npu memory!, size: 59187712" (the NPU's memory)
        ("rk3568_android_failed_malloc_npu_memory_iommu.log", "vram", None),
    ],
)
def test_science_video_and_edge_devices_words(name, kind, ending):
    failure = explain_log((LOGS / name).read_bytes())["failure"]
    assert (failure["kind"], failure.get("ending"), failure["node"]["class_type"]) == (kind, ending, None)


@pytest.mark.parametrize(
    ("name", "kind", "class_type"),
    [
        # graalvm/setup-graalvm#66: MSVC's "LNK1171: unable to load mspdbcore.dll (error code: 1455)" (its code no node)
        ("setup_graalvm_lnk1171_mspdbcore_1455.log", "commit-limit", None),
        # influxdata/influxdb#8229: "ThreadSanitizer failed to allocate 0x80000 (524288) bytes ... (error code: 1455)"
        ("influxdb_threadsanitizer_1455_appveyor.log", "commit-limit", None),
        # brimdata/zui#3022: Go's "VirtualAlloc of bytes failed with errno=1455" (the API's name is no node either)
        ("zui_virtualalloc_errno_1455.log", "commit-limit", None),
        # actions/runner-images#785: "OpenJDK 64-Bit Server VM warning: INFO: os::commit_memory(...) failed; error='The
        # paging file is too small ...'"
        ("runner_images_graalvm_commit_memory_oneline.log", "commit-limit", None),
        # swar/Swar-Chia-Plot-Manager#323: Microsoft's C runtime words ENOMEM "[Errno 12] Not enough space" (no disk)
        ("swar_chia_execv_errno12_not_enough_space.log", "system-ram", None),
        # autonomys/space-acres#56: Windows' "Faulting application name: space-acres.exe": a crash, whatever app it was
        ("space_acres_faulting_vcruntime_event.log", "abrupt", None),
        # cubiq/ComfyUI_InstantID#27: ONNX Runtime's "CUDA_PATH is set but CUDA wasnt able to be loaded" is the error;
        # after "EP Error" it fell back to the CPU and went on (pythongosssss/ComfyUI-WD14-Tagger#59: no failure)
        ("comfyui_instantid_onnxruntime_cuda_path_not_loaded.log", "other", None),
        ("ComfyUI-WD14-Tagger59_onnx_ep_fallback_other.log", None, None),
    ],
)
def test_windows_commit_limit_codes_and_what_is_no_nodes_class(name, kind, class_type):
    failure = explain_log((LOGS / name).read_bytes())["failure"]
    assert (failure and failure["kind"], failure and failure["node"]["class_type"]) == (kind, class_type)


@pytest.mark.parametrize(
    ("name", "kind", "ending"),
    [
        # kubernetes#19825, coderaiser/cloudcmd#440: docker inspect's "ExitCode": 137 beside "OOMKilled": false: a
        # SIGKILL its memory cgroup did not send (not the container's limit, nor known to be memory)
        ("docker_inspect_exit137_oomkilled_false.log", "abrupt", "killed"),
        ("cloudcmd_docker_state_exit137_oomkilled_false.log", "abrupt", "killed"),
        # je-santos/MPLBM-UT#92: MPICH's "BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES ... EXIT CODE: 9"
        ("mplbm_mpi_bad_termination_exit_code_9.log", "system-ram", "killed"),
        # horovod#469: Open MPI's "mpirun noticed that process rank 7 ... exited on signal 9 (Killed)."
        ("horovod_mpirun_rank7_signal9_keras.log", "system-ram", "killed"),
        # abertschi/postcards#36: the kernel's OOM report, its "Free swap = 0kB" under "kernel:"
        ("raspberrypi_kernel_oom_postcards.log", "system-ram", "memory-kill"),
        # deepbeepmeep/Wan2GP#2228: "gradio.exceptions.Error: OutOfMemoryError('CUDA out of memory. ...')"
        ("wan2gp_prompt_enhancer_gradio_cuda_oom.log", "vram", None),
        # video-diffusion-speedrun#2: NCCL's "Error while creating shared memory segment /dev/shm/nccl-pZafXL ..."
        ("nccl_shm_segment_docker_oneline.log", "disk", None),
        # meta-pytorch/tnt#858: "Watchdog caught collective operation timeout: WorkNCCL(...) ran for 60033 ms ..."
        ("nccl_watchdog_broadcast_timeout_test_oneline.log", "other", None),
        # marella/ctransformers#189: "GGML_ASSERT: ...llama.cpp:453: data": ggml aborts
        ("ctransformers_ggml_assert_data.log", "abrupt", "crash"),
        # Jupyter's "The kernel for ... appears to have died. It will restart automatically." (BME1478H/Fall2022class#220),
        # VS Code's "The Kernel crashed while executing code ..." (AammarTufail/...#1), Databricks' "The spark driver has
        # stopped unexpectedly and is restarting." (IIIS-Li-Group/OpenFE#44): the kernel's process ended, cause unsaid
        ("jupyter_kernel_restarting_assignment6_first_cell.log", "abrupt", "backend-exit"),
        ("vscode_canceled_future_kernel_crashed_student.log", "abrupt", "backend-exit"),
        ("databricks_spark_driver_stopped_openfe_n_jobs.log", "abrupt", "backend-exit"),
        # googlecolab/colabtools#2774: tcmalloc's "large alloc 140113840283648 bytes == (nil)": a size gone wrong
        ("colab_tcmalloc_large_alloc_140tb_bad_alloc.log", "other", None),
    ],
)
def test_distributed_jobs_containers_and_notebook_kernels_words(name, kind, ending):
    failure = explain_log((LOGS / name).read_bytes())["failure"]
    assert (failure["kind"], failure.get("ending")) == (kind, ending)


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        # facefusion#248: its work, then "[FACEFUSION.CORE] Merging video failed" as the paste's last line
        ("facefusion_merging_video_failed_enhancer.log", "other"),
        # KlingAIResearch/LivePortrait#438: ffmpeg's "Invalid buffer size, packet size 65536 < expected frame_size":
        # a packet's, not Metal's "Invalid buffer size: 5.53 GB" (no GPU's memory named)
        ("liveportrait_runpod_second_animation_ram_full.log", "other"),
        # NVIDIA/flownet2-pytorch#43: an old torch's "unable to write to file </torch_18693_1954506624> at
        # /pytorch/torch/lib/TH/THAllocator.c:271" in a container: its /dev/shm
        ("flownet2_docker_torch_shm_write_fail.log", "disk"),
        # kubernetes#122256: kubectl's "Reason: Error" over "Exit Code: 137" (Kubernetes says OOMKilled when it is)
        ("k8s_pod_exit137_reason_error.log", "abrupt"),
        # kevalnagda/plant-disease-detection#2: pickle's "MemoryError: " with no message
        ("plant_disease_rpi_pickle_memoryerror.log", "system-ram"),
    ],
)
def test_a_last_failed_line_a_packets_buffer_an_old_shm_write_and_kubectls_reason(name, kind):
    assert explain_log((LOGS / name).read_bytes())["failure"]["kind"] == kind


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        # yuxumin/PoinTr#5, erikwijmans/Pointnet2_PyTorch#74: a CUDA op's "CUDA kernel failed : invalid device function"
        # (built for another GPU), then the segfault it causes: the error is the failure, not a crash of its own
        ("pointr_kitti_invalid_device_function_segfault.log", "other"),
        ("pointnet2_pytorch_cls_invalid_device_segfault_zsh.log", "other"),
        # open-mmlab/OpenPCDet#348: a CUDA op's check, "GPUassert: out of memory pcdet/ops/iou3d_nms/src/..."
        ("openpcdet_pvrcnn_iou3d_nms_gpuassert_oom.log", "vram"),
        # Willyzw/HI-SLAM2#41: Thrust's "MemoryError: std::bad_alloc: cudaErrorMemoryAllocation: out of memory"
        ("hislam2_demo_distcuda2_bad_alloc_oom.log", "vram"),
        # joinhive-ai/transcoder#11: NVENC's session error 10 first, the ENOMEMs its transcoder reports after it
        ("livepeer_nvenc_opensession_out_of_memory_session_limit.log", "other"),
        # nextcloud/recognize#86: V8's "RangeError: Array buffer allocation failed" loading a model on a Raspberry Pi
        ("nextcloud_recognize_array_buffer_allocation_failed.log", "system-ram"),
        # nextcloud/recognize#26: Symfony's "The process has been signaled with signal "9"."
        ("nextcloud_recognize_classify_signal_9.log", "system-ram"),
    ],
)
def test_a_cuda_ops_check_thrusts_bad_alloc_nvencs_session_and_a_php_apps_kill(name, kind):
    assert explain_log((LOGS / name).read_bytes())["failure"]["kind"] == kind


def test_openvinos_gpu_plugin_out_of_gpu_resources_is_the_gpus_memory():
    # bes-dev/stable_diffusion.openvino#165, an Intel UHD iGPU: "[GPU] out of GPU resources" (ocl_engine.cpp)
    doc = explain_log((LOGS / "openvino_sd_intel_uhd_out_of_gpu_resources.log").read_bytes())
    assert doc["failure"]["kind"] == "vram" and doc["suggestions"]
