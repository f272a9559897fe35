"""Whole console logs as ComfyUI writes them next to itself (``comfyui.log``, ``comfyui.prev.log``), committed with a
fork or a project: the session, not a paste. Each log is cited by its repository; they are the corpus' round ah."""

from __future__ import annotations

import pytest
from helpers import FIXTURES

from memprobe.logs.explain import explain_log
from memprobe.logs.reader import read_log
from memprobe.output.text import explain_text

LOGS = FIXTURES / "logs"


def explained(name: str) -> dict:
    return explain_log((LOGS / name).read_bytes())


@pytest.mark.parametrize(
    "name",
    [
        # Hyperillion/Gaudi-Style-Image-ComfyUI, zhangmiaoyuan/ComfyUI: ComfyUI-Manager's cache update failed with no
        # network at start-up; kenneth0401/Flux: a pack's object_info error; then every prompt ran and finished
        "Gaudi-Style-Image-ComfyUI_Hyperillion_rtx2070s_manager_offline_console.log",
        "ComfyUI_zhangmiaoyuan_flux_fp8_4090d_console.log",
        "Flux_kenneth0401_prev_flux_loaded_partially_ok_console.log",
        # jike589/yxcl_06: the same start-up error, then runs this log never announces ("got prompt" is not in it)
        "yxcl_06_jike589_prev_ends_after_sampling_console.log",
    ],
)
def test_a_start_ups_error_that_prompts_ran_after_is_not_the_failure(name: str):
    doc = explained(name)
    assert doc["failure"] is None
    assert doc["suggestions"] == []


def test_a_pack_that_failed_to_import_is_the_failure_though_prompts_ran_after_it():
    # Sean-lx/ComfyUI: AnimateDiff-Evolved could not import; a prompt then sampled and saved its image, and the log
    # ends there (no "Prompt executed": closed, or copied while running). Collectors of seven of eleven such logs
    # labelled the import failure the log's failure: nothing else failed, and it is a fault of the install
    failure = explained("ComfyUI_Sean-lx_prev_mac_upscale_cutoff_console.log")["failure"]
    assert (failure["kind"], failure["source"], failure["node"]["pack"]) == (
        "other",
        "import",
        "ComfyUI-AnimateDiff-Evolved",
    )
    # a later prompt's failure outranks it (FDAE28MITIGO's notebook: packs failed to import, then KSampler's model failed)
    later = explained("FDAE28MITIGO_colab_headertoolarge_validation.log")["failure"]
    assert (later["kind"], later["node"]["class_type"]) == ("other", "KSampler") and later["source"] != "import"


@pytest.mark.parametrize(
    ("name", "class_type", "message"),
    [
        # iamkaikai/LACE: ComfyUI's "* (prompt):" heads the errors of the prompt as a whole, under no node
        (
            "LACE_iamkaikai_prev_tile_size_validation_console.log",
            "LACE Visualizer",
            "Value 256 smaller than min of 320",
        ),
        # agsz5/comfyUI_setup: a log file with a stamp before each line keeps each reason's "  - " (a later prompt's
        # FaceDetailer error is the last failure, not the refused prompts before it)
        (
            "comfyUI_setup_agsz5_cpu_mode_facedetailer_cuda_error_console.log",
            None,
            "CUDA error: operation not supported",
        ),
    ],
)
def test_a_refused_prompts_own_errors_are_no_node(name: str, class_type: str | None, message: str):
    failure = explained(name)["failure"]
    assert failure["kind"] == "other" and failure["node"]["class_type"] == class_type
    assert message in failure["message"]


def test_a_stamped_log_files_validation_reasons_are_read_under_their_node():
    log = (
        "[2024-11-18 01:44:00.206] got prompt\n"
        "[2024-11-18 01:44:00.211] Failed to validate prompt for output 179:\n"
        "[2024-11-18 01:44:00.211] * (prompt):\n"
        "[2024-11-18 01:44:00.215]   - Required input is missing: filename_prefix\n"
        "[2024-11-18 01:44:00.217] * ToBasicPipe 95:\n"
        "[2024-11-18 01:44:00.218]   - Required input is missing: negative\n"
        "[2024-11-18 01:44:00.226] Output will be ignored\n"
        "[2024-11-18 01:44:00.227] invalid prompt: {'type': 'prompt_outputs_failed_validation', 'message': "
        "'Prompt outputs failed validation', 'details': '', 'extra_info': {}}\n"
    )
    failure = explain_log(log)["failure"]
    assert (failure["node"]["class_type"], failure["node"]["id"]) == ("ToBasicPipe", "95")
    assert failure["message"] == "Required input is missing: negative"


@pytest.mark.parametrize(
    ("name", "class_type"),
    [
        # astrokathi/CustomizedComfyUI: the server's "invalid prompt: {'type': 'missing_node_type', ... 'class_type':
        # 'NVIDIA_LLM_Prompt_Iterator' ...}"
        ("CustomizedComfyUI_astrokathi_mps_missing_node_terminated_console.log", "NVIDIA_LLM_Prompt_Iterator"),
        # furkandurmus/ComfyUi-Style-Transfer: the executor's call into the node with an input the workflow lacks
        ("ComfyUi-Style-Transfer_furkandurmus_prev_vangogh_typeerror_console.log", "VanGoghPreprocessor"),
        # ninetyfive666/ComfyUI: validation looking up a class no installed pack registers (an older ComfyUI)
        ("ComfyUI_ninetyfive666_prev_effloader_keyerror_console.log", "Eff. Loader SDXL"),
        # terry-xu-2077/TerryDirector: a V3 node's execute called by comfy_api's EXECUTE_NORMALIZED (newer ComfyUI)
        ("terry-xu-2077_TerryDirector_blocksparse_missing_selection.log", "BlockSparseAttention"),
    ],
)
def test_the_class_an_executor_error_names_is_the_failing_node(name: str, class_type: str):
    failure = explained(name)["failure"]
    assert (failure["kind"], failure["node"]["class_type"]) == ("other", class_type)


def test_argparse_refusing_comfyuis_command_line_is_the_failure():
    # toxicwind/ComfyUI: A1111's flags passed to ComfyUI's main.py
    failure = explained("ComfyUI_toxicwind_prev_argparse_unrecognized_console.log")["failure"]
    assert failure["kind"] == "other"
    assert failure["message"].startswith("main.py: error: unrecognized arguments: --disable-safe-unpickle")


def test_a_failure_is_not_forgotten_when_a_long_session_runs_on_after_it():
    # GIVEN ComfyUI 0.3.64's own log of a prompt that raised (recorded here), then forty prompts that ran and finished
    # (a day's comfyui.log: one of held-out round aq ran 48 prompts, its failure in the ninth)
    recorded = FIXTURES / "comfyui-0.3.64" / "logs"
    ok = (recorded / "txt2img.log").read_text(encoding="utf-8")
    failed = (recorded / "error_runtime.log").read_text(encoding="utf-8")
    doc = explain_log(failed + ok * 40)
    # THEN the failure is still the one explained: the reader's window of recent prompts does not drop it
    assert doc["failure"] is not None and doc["failure"]["kind"] == "other"
    assert doc["failure"]["message"] == explain_log(failed)["failure"]["message"]


def test_ctrl_c_of_a_server_that_had_started_is_a_stop_and_of_a_hung_start_up_is_not():
    # Kostafun/ComfyMulti (round aq): start-up finished ("To see the GUI go to"), no prompt ran, the user stopped the
    # server while ComfyUI-Manager still fetched; Python printed threading._shutdown's KeyboardInterrupt traceback
    stopped = explained("ComfyMulti_3090_shutdown_keyboardinterrupt.log")
    assert stopped["failure"] is None
    assert stopped["no_failure"].startswith("No failure in this log")
    # a Colab start-up that hung in CUDA's initialisation and was interrupted there did not finish: that is the failure
    assert explained("test-rep_colab_startup_hang_cuda_init_ctrl_c_traceback.log")["failure"]["kind"] == "other"


def test_what_a_launcher_raises_after_ctrl_c_stopped_the_server_is_not_a_runs_failure():
    # mrnfqrbl/sd-forge-colab (round aq): prompts failed in SaveImageExtended's output, later prompts ran, the user
    # stopped the server, then the notebook's own cell raised a NameError (its tunnel thread)
    failure = explained("mrnfqrbl_sd-forge-colab_saveimageextended_nonetype.log")["failure"]
    assert failure["kind"] == "other"
    assert failure["message"] == "object of type 'NoneType' has no len()"


def test_a_pack_that_failed_to_import_in_the_last_start_up_is_the_failure_though_earlier_sessions_ran():
    # johanverm/ebsynth (round aq): a notebook's output holds three start-ups; prompts ran in the first two, and in the
    # last one ComfyUI-MotionCtrl-SVD failed to import (numpy 2 under a cv2 built for numpy 1) and nothing ran after
    failure = explained("johanverm_ebsynth_motionctrl_svd_numpy_import_failed.log")["failure"]
    assert (failure["kind"], failure["node"]["pack"]) == ("other", "ComfyUI-MotionCtrl-SVD")


def test_a_pack_that_failed_to_import_before_runs_that_finished_is_the_failure():
    # LuqP2/ImageMetaHub-ComfyUI-Save (round aq): the pack under test failed to import; an SD 1.5 prompt then ran
    failure = explained("LuqP2_ImageMetaHub_custom_node_indentationerror_import_failed.log")["failure"]
    assert (failure["kind"], failure["message"]) == ("other", "unexpected indent")
    assert failure["node"]["pack"] == "ImageMetaHub-ComfyUI-Save"


def test_a_tunnel_that_found_nothing_listening_before_comfyui_served_is_not_how_the_log_ends():
    # akshayanandraut/colab (round aq): ngrok's "connection refused" at line 11, while ComfyUI still started; prompts
    # ran after it, and the saved output stops in a sampler's progress bar (ComfyUI had retried a VAE encode in tiles)
    failure = explained("akshayanandraut_colab_comfyui_vae_encode_oom_tiled_retry.log")["failure"]
    assert failure["kind"] == "abrupt"
    assert failure["message"].startswith("The log stops mid-run")  # (ComfyUI stopped there, or the log was cut)
    assert "nothing answered" not in failure["message"]


def test_comfyuis_stopped_server_in_mid_prompt_is_a_stop_and_after_an_install_is_none():
    # marootto/comfyui (round ar): the second prompt was loading its model when ComfyUI said "Stopped server" (Ctrl+C)
    failure = explained("marootto_comfyuiprev2_codespace_llama_cpp_insightface_import_failed.log")["failure"]
    assert (failure["kind"], failure["ending"]) == ("abrupt", "stopped")
    assert '"Stopped server"' in failure["message"]
    # JTstreet53 (round ar): no prompt ran; ComfyUI-Manager installed a pack (its download bars), then the server was
    # stopped: an idle server's stop ends nothing, and the pack that failed to import is the failure
    failure = explained("JTstreet53_comfyuiprev2_fizznodes_numexpr_import_failed.log")["failure"]
    assert (failure["kind"], failure["source"]) == ("other", "import")


def test_a_restart_comfyui_manager_asked_for_is_no_ending():
    # SeiArtisan's notebook (round ar): "Restarting... [Legacy Mode]" after each install, then a new start-up, whose
    # "Total VRAM" line shows twice; ComfyUI-BiRefNet failed to import in one of them
    failure = explained("SeiArtisan_comfy_birefnet_import_failed_utils_clash.log")["failure"]
    assert (failure["kind"], failure["source"], failure["node"]["pack"]) == ("other", "import", "ComfyUI-BiRefNet")


def test_a_prompt_that_ran_after_refused_ones_is_what_the_log_ends_in():
    # LucasLyra01's notebook (round ar): a prompt refused (an image file it could not read), then a Wan prompt loaded
    # its text encoder and the saved output stops there; XingweiLiang's: two refused, then ^C during a Qwen-Image load
    lucas = explained("LucasLyra01_comfy0326_wan_t4_stops_after_te_load.log")["failure"]
    assert (lucas["kind"], lucas["ending"]) == ("abrupt", "log-stops")
    xingwei = explained("XingweiLiang_architecture_comfy0356_L4_qwenimage_ctrlc.log")["failure"]
    assert (xingwei["kind"], xingwei["ending"]) == ("abrupt", "stopped")


def test_pips_resolver_notice_in_a_set_up_cell_is_no_failure():
    # kelvinweijun's Kaggle notebook (round ar): "ERROR: pip's dependency resolver does not currently take into
    # account all the packages that are installed" while installing, then a normal start-up
    doc = explained("kelvinweijun_wan22animate_kaggle_comfy0369_normal_startup.log")
    assert doc["failure"] is None


def test_the_newer_frontends_toast_above_a_report_gives_way_to_the_report():
    # abenzerps/Qwen-Image-2.1-GGUF discussion 2 (round ar): "Node threw an error during execution." above the report,
    # its headings rendered (no "#"), its node a subgraph's ("459:470")
    failure = explained("HF_abenzerps_QwenImage21GGUF2_unetloadergguf_unknown_arch.log")["failure"]
    assert (failure["source"], failure["node"]["class_type"], failure["node"]["id"]) == (
        "report",
        "UnetLoaderGGUF",
        "459:470",
    )


def test_stableswarmuis_stdout_prefix_is_taken_off():
    # Inspire Pack #22 (round ar): each line of a traceback behind "ComfyUI stdout: ", cut before its exception line
    failure = explained("InspirePack22_swarmui_facedetailerpipe_mediapipe_mesh.log")["failure"]
    assert (failure["kind"], failure["source"], failure["node"]["pack"]) == (
        "other",
        "traceback",
        "ComfyUI-Impact-Pack",
    )


def test_a_recovery_the_log_repeats_is_said_once_with_its_count_and_kept_bounded():
    # ComfyUI#9621: attention retried in slices, a line per try (17: the first printed on the sampler's bar's line)
    doc = explained("ComfyUI9621_qwenimage_sampling_oom_retry_console.log")
    assert [(f["kind"], f["line"], f["count"]) for f in doc["fallbacks"]] == [("attention-fallback", 8, 17)]
    # a session of 20,000 such lines keeps 8 of them (and counts them all)
    line = "out of memory error, emptying cache and trying again\n"
    facts = read_log("got prompt\nRequested to load Flux\n" + line * 20_000)
    prompt = facts.prompts[-1]
    assert len(prompt.fallbacks) == 8 and prompt.fallback_counts == {"attention-fallback": 20_000}


def test_a_traceback_the_log_is_cut_in_is_an_error_it_does_not_state():
    # patientx/ComfyUI-Zluda#28 (round ar): comfyui.log ends in "Traceback (most recent call last):" and half a frame
    doc = explained("ComfyUIZluda28_no_cuda_gpus_available_startup.log")
    assert (doc["failure"]["kind"], doc["failure"]["source"], doc["failure"]["message"]) == ("other", "traceback", "")
    # it is not called "not a memory failure": the log does not say what it raised
    assert "First failure: an error the log does not state (cut before it) [other]" in explain_text(doc)
    # a traceback header with a log going on after it (a launcher's, a quoted one) is no failure of its own
    assert (
        explain_log("Traceback (most recent call last):\ngot prompt\nPrompt executed in 1.00 seconds\n")["failure"]
        is None
    )
