"""`memprobe explain` on failures said in a wording of their own, as held-out rounds an and ao brought them (each
log in tests/fixtures/logs, cited in SOURCES.md): a pack's import failure from ComfyUI's own lines, a refused or
unregistered node named, validation errors, the server's error for a node's inputs, a shell session with nothing of
ComfyUI's, a short paste's prefix, the software in front of ComfyUI quoting its errors."""

from __future__ import annotations

import pytest
from helpers import FIXTURES

from memprobe.logs.explain import explain_log
from memprobe.logs.text import learned_prefix

LOGS = FIXTURES / "logs"


def text(name: str) -> str:
    return (LOGS / name).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("name", "pack"),
    [
        ("PuLID21_import_failed_oneline.log", "PuLID_ComfyUI"),  # cubiq/PuLID_ComfyUI#21: the list's line alone
        ("PhotoMakerPlus10_import_failed_oneline.log", "ComfyUI-PhotoMaker"),  # shiimizu/ComfyUI-PhotoMaker-Plus#10
        ("ArtGallery6_gbk_decode_uploadimage_js_zh.log", "ComfyUI-ArtGallery"),  # ZHO-ZHO-ZHO/ComfyUI-ArtGallery#6
    ],
)
def test_comfyuis_own_lines_for_a_pack_that_failed_to_import_are_that_failure(name, pack):
    # GIVEN a paste of ComfyUI's "0.0 seconds (IMPORT FAILED): ...\\custom_nodes\\<pack>" alone, or an import's
    # traceback under a path alone on the paste's first line (no shell's prompt: nothing had ended there)
    failure = explain_log(text(name))["failure"]
    # THEN the pack's import is the failure: not memory, at start-up, the pack named
    assert (failure["kind"], failure["source"], failure["node"]["pack"]) == ("other", "import", pack)
    assert failure["stage"] == "other"


def test_an_imports_traceback_outranks_comfyuis_line_for_an_earlier_pack():
    # GIVEN LykosAI/StabilityMatrix#762: "Cannot import ... module for custom nodes: No module named 'llama_cpp'"
    # (its traceback above the paste), then a whole traceback of PuLID's import
    failure = explain_log(text("stabilitymatrix762_import_failed_insightface_console.log"))["failure"]
    # THEN the traceback, which says what failed to import, is the one explained
    assert (failure["node"]["pack"], failure["exception_type"]) == ("PuLID_ComfyUI", "ModuleNotFoundError")
    assert failure["message"] == "No module named 'insightface'"


def test_an_older_comfyuis_validation_error_on_one_line_is_the_refusal():
    # Fannovel16/FN16-ComfyUI-nodes#1: "Failed to validate prompt for output 16 Value not in list. ..." (the reason
    # on the line, as ComfyUI printed it in 2023; the paste set in bold)
    failure = explain_log(text("FN16nodes1_image_resize_validation_zh.log"))["failure"]
    assert (failure["kind"], failure["source"]) == ("other", "validation")
    assert failure["message"].startswith("Value not in list. Image Resize, supersample: nearest")


def test_a_validation_error_cut_below_its_heading_names_the_node_it_lists():
    # kijai/ComfyUI-KJNodes#42: the paste starts at the node's line, the "Failed to validate prompt" heading cut off
    failure = explain_log("* VRAM_Debug 754:\n  - Required input is missing: input\n")["failure"]
    assert (failure["kind"], failure["source"], failure["message"]) == (
        "other",
        "validation",
        "Required input is missing: input",
    )
    assert failure["node"]["class_type"] == "VRAM_Debug" and failure["node"]["id"] == "754"
    assert failure["evidence"][0] == {"line": 1, "text": "* VRAM_Debug 754:"}  # where the class was read
    # AND a Markdown list item with a number is no node: the reason two lines below it names none
    failure = explain_log("* Step 2:\nsome words\n  - Required input is missing: input\n")["failure"]
    assert failure["node"]["class_type"] is None


def test_the_servers_error_for_a_nodes_inputs_names_that_node():
    # Lightricks/ComfyUI-LTXVideo#36: server.py's "[ERROR] An error occurred while retrieving information for the
    # 'LTXVCLIPModelLoader' node." above the traceback of its INPUT_TYPES
    failure = explain_log(text("LTXVideo36_clipmodelloader_keyerror_text_encoders.log"))["failure"]
    assert (failure["kind"], failure["node"]["class_type"]) == ("other", "LTXVCLIPModelLoader")
    assert (failure["exception_type"], failure["message"]) == ("KeyError", "'text_encoders'")
    # AND a fork's server that says the error on the line (``... '{x}' node: {e}``) names the node and its error
    fork = "[ERROR] An error occurred while retrieving information for the 'LTXVCLIPModelLoader' node: 'text_encoders'"
    failure = explain_log(fork)["failure"]
    assert (failure["kind"], failure["node"]["class_type"], failure["message"]) == (
        "other",
        "LTXVCLIPModelLoader",
        "'text_encoders'",
    )


def test_a_shell_session_with_nothing_of_comfyuis_in_it_ended_nothing():
    # Comfy-Org/ComfyUI#12545: a PowerShell window's banner, a command, the prompt back, and the user's words
    doc = explain_log(text("ComfyUI12545_open_as_workflow_no_error_powershell.log"))
    assert doc["failure"] is None
    # AND a launcher's own word for ComfyUI's end still is one (the Aki launcher: "ended abnormally, exit code 3")
    failure = explain_log(text("JoyCaptionTwo113_llm_load_exitcode3_launcher.log"))["failure"]
    assert (failure["kind"], failure["ending"]) == ("abrupt", "backend-exit")
    assert failure["evidence"][0]["text"] == "[程序异常退出，退出代码为 3 (0x00000003)]"


def test_a_short_paste_keeps_a_decimal_and_an_error_level_at_its_start():
    # a paste of one or two lines learns a logger's prefix only where it is one: "0.0 seconds" is no date, and
    # "ERROR: " in front of a paste of one line is what it says (cubiq/PuLID_ComfyUI#21, kijai/ComfyUI-WanVideoWrapper#463)
    assert learned_prefix(["0.0 seconds (IMPORT FAILED): C:\\ComfyUI\\custom_nodes\\PuLID_ComfyUI"]) is None
    assert learned_prefix(["ERROR: clip vision file is invalid and does not contain a valid vision model."]) is None
    strip = learned_prefix(["INFO: got prompt"])  # (a level that is not an error's is still a prefix)
    assert strip is not None and strip("INFO: got prompt") == "got prompt"


@pytest.mark.parametrize(
    "name",
    [
        "ComfyUI_TripoSG9_missing_node_types_popup.log",  # fredconex/ComfyUI-TripoSG#9: the frontend's dialog
        "cog_comfyui264_pget_birefnet_download_failed_oneline.log",  # replicate/cog-comfyui#264: a CalledProcessError
        "Apt_Preset8_animatediffevo_no_motion_models_oneline.log",  # cardenluo/ComfyUI-Apt_Preset#8: "- ERROR -"
        "KaouthiaComfyUIDocker12_sqlite_unable_open_db_oneline.log",  # Kaouthia/ComfyUI-Docker#12: SQLAlchemy's
        "ComfyUIHomeAssistant3_bad_request_prompt_oneline.log",  # Incipiens/ComfyUI-Home-Assistant#3: aiohttp's 400
        "Hunyuan3DWrapper113_pyfqmr_not_found_oneline.log",  # kijai/ComfyUI-Hunyuan3DWrapper#113: "Please install"
        "comfyui_various18_audio_blend_expand_sizes_oneline.log",  # jamesWalker55/comfyui-various#18: torch's expand
        "SeedVR2_227_nadit_flash_attn_282_oneline.log",  # numz/ComfyUI-SeedVR2_VideoUpscaler#227: its import error
        "comfycli196_comfy_run_not_running.log",  # Comfy-Org/comfy-cli#196: the CLI found no ComfyUI to run on
        "StabilityMatrix777_winerror126_fbgemm_dll_oneline.log",  # LykosAI/StabilityMatrix#777: "OSERROR: [WinError 126]"
        "ComfyUI15791_comfycloud_failed_enqueue_oneline.log",  # Comfy-Org/ComfyUI#15791: one line that says it failed
    ],
)
def test_round_aos_errors_in_their_own_words_are_failures_and_not_memory(name):
    doc = explain_log(text(name))
    assert doc["failure"] is not None and doc["failure"]["kind"] == "other", name
    assert doc["verdict"]["title"].startswith("Not a memory error")


@pytest.mark.parametrize(
    ("name", "class_type"),
    [
        # a prompt refused for a node no pack registered, as the software in front of ComfyUI quotes it: RunPod's
        # worker (runpod-workers/worker-comfyui#30), an app's HTTP error (mirabarukaso/character_select_stand_alone_app#16),
        # SwarmUI's "ComfyUI errored:" and its JSON (mcmonkeyprojects/SwarmUI#755)
        ("workercomfyuiPR30_invalid_prompt_facedetailer_missing.log", "FaceDetailer"),
        ("characterselect16_invalid_prompt_stepsandcfg_oneline.log", "StepsAndCfg"),
        ("SwarmUI755_invalid_prompt_swarmmaskblur_inpaint.log", "SwarmMaskBlur"),
        # SwarmUI#890: the refused node's class at the bottom of the JSON SwarmUI quotes
        ("SwarmUI890_validate_inputs_missing_arg_wan_gguf.log", "SwarmJustLoadTheModelPlease"),
        # ssitu/ComfyUI_UltimateSDUpscale#11: the dialog's validation error behind its node's class
        ("UltimateSDUpscale11_missing_force_uniform_tiles_oneline.log", "UltimateSDUpscale"),
        # pydn/ComfyUI-to-Python-Extension#59: a tool that runs ComfyUI's workflows looking up a class no pack registered
        ("ComfyUItoPython59_keyerror_layerutility_lama.log", "LayerUtility: LaMa"),
    ],
)
def test_a_refused_or_unregistered_node_is_named(name, class_type):
    failure = explain_log(text(name))["failure"]
    assert (failure["kind"], failure["node"]["class_type"]) == ("other", class_type)


def test_an_error_dialogs_title_may_hold_a_symbol():
    # NimaNzrii/comfyui-photoshop#21: "Error occurred when executing 🔹Photoshop ComfyUI Plugin:"
    failure = explain_log(text("comfyuiPhotoshop21_failed_load_directory_popup.log"))["failure"]
    assert (failure["kind"], failure["source"]) == ("other", "popup")
    assert failure["message"].startswith("Failed to load directory after 5 attempts.")


def test_a_serverless_worker_that_found_no_comfyui_saw_it_end():
    # runpod-workers/worker-comfyui#127: its older wording of "nothing listens on ComfyUI's port"
    failure = explain_log(text("workercomfyui127_failed_connect_500_attempts_oneline.log"))["failure"]
    assert (failure["kind"], failure["ending"]) == ("abrupt", "unreachable")


def test_a_one_line_paste_that_says_it_failed_is_that_failure_also_fenced():
    # Comfy-Org/ComfyUI#15791's one line, as pasted and inside a <details> or a code fence; not a logger's warning
    line = "Failed to enqueue job for processing"
    for paste in (line, f"<details>\n\n{line}\n</details>", f"```\n{line}\n```"):
        failure = explain_log(paste)["failure"]
        assert failure is not None and (failure["kind"], failure["message"]) == ("other", line), paste
    assert explain_log(f"2023-10-19 11:33:14.591 | WARNING  | worker:run:12 - {line}")["failure"] is None


@pytest.mark.parametrize(
    "paste",
    [
        "Failed to enqueue job for processing",  # Comfy-Org/ComfyUI#15791, alone
        "The node pack could not load its model from the folder you gave it.",  # no wording a table knows
        "./main.py: line 1: import: command not found",  # a shell ran main.py (Comfy-Org/ComfyUI#861)
        "[MyPack] something went wrong:\n  the weights file is missing",
        "模型加载失败，请检查路径",  # "loading the model failed, check the path"
        "Ошибка: файл модели повреждён",  # "Error: the model file is damaged"
    ],
)
def test_a_paste_that_says_something_failed_is_that_failure_whatever_its_words(paste):
    # GIVEN a paste with nothing ComfyUI prints, one of its lines saying something failed (round ao's misses were such
    # pastes in a pack's or a tool's own words: "- ERROR - No motion models found", "pyfqmr not found. Please ...")
    failure = explain_log(paste)["failure"]
    # THEN that line is the failure, and it is not memory
    assert failure is not None and failure["kind"] == "other", paste
    assert failure["message"] in paste


@pytest.mark.parametrize(
    "name",
    [
        "ComfyUI5579_flux_clip_missing_warning_oneline.log",  # ComfyUI's list of a checkpoint's missing keys
        "Z-Image52_sage_shared_memory_fallback_oneline.log",  # "..., using pytorch attention instead"
        "ComfyUI13088_aimdo_winerror4551_oneline.log",  # comfy-aimdo did not load: ComfyUI runs without it
        "comfyuimcp414_hostbuffer_del_ignored_nofailure_console.log",  # "Exception ignored in: ..." and its traceback
        "ComfyUI-WD14-Tagger59_onnx_ep_fallback_other.log",  # onnxruntime's "EP Error" before it falls back
        "ComfyUI12545_open_as_workflow_no_error_powershell.log",  # "There are no errors, ..."
    ],
)
def test_a_paste_of_a_warning_or_a_fallback_is_no_failure(name):
    # GIVEN a paste whose words sound like an error, of something ComfyUI or a library went on past
    # THEN it is not read as the failure (each thread concluded nothing had failed there)
    assert explain_log(text(name))["failure"] is None


@pytest.mark.parametrize(
    "name",
    [
        "ComfyUI4241_mac_black_image_invalid_cast_warning.log",  # Comfy-Org/ComfyUI#4241: SaveImage's cast
        "extensiontutorials4_impact_black_image_invalid_cast.log",  # the Impact Pack's, then its text again
        "VHS479_invalid_value_cast_black_output_oneline.log",  # VideoHelperSuite's, on one line
    ],
)
def test_nan_pixels_cast_as_an_image_is_saved_are_a_failure_and_not_memory(name):
    # GIVEN numpy's "invalid value encountered in cast" as ComfyUI or a pack turns an image into 8-bit pixels: they
    # were NaN, the output is black (each thread's complaint), though nothing raised
    failure = explain_log(text(name))["failure"]
    # THEN that is the failure, not a memory one
    assert (
        failure is not None and failure["kind"] == "other" and "invalid value encountered in cast" in failure["message"]
    )


def test_tensorrts_builder_running_out_of_gpu_memory_is_vram():
    # yuvraj108c/ComfyUI-Upscaler-Tensorrt#49 (round ap): TensorRT's builder could not grow its GPU buffer
    line = (
        "[E] [virtualMemoryBuffer.cpp::nvinfer1::StdVirtualMemoryBufferImpl::resizePhysical::154] Error Code 2: "
        "OutOfMemory (Requested size was 4194304000 bytes.)"
    )
    doc = explain_log(line)
    assert doc["failure"]["kind"] == "vram" and doc["suggestions"]


# Round ap (tests/fixtures/logs, cited in SOURCES.md): sessions — notebooks' saved output, committed comfyui.log files


@pytest.mark.parametrize(
    "name",
    [
        "ctf2090-Colab_a100_wan21_ksampler_allocation_oom_console.log",  # the OOM among skipped outputs' validation
        "HommageTools_colab_flux_controlnet_ksampler_allocation_oom_console.log",  # OOM twice, then a LoRA's error
        "google-repostas-materia_fooocus_colab_faceswap_sampling_cuda_oom_console.log",  # Fooocus: no "got prompt"
        "RomainBer_ComfyUI_vaedecode_defaultcpuallocator_prev2.log",  # RAM in a decode, then days of other errors
    ],
)
def test_the_memory_that_ran_out_in_a_session_is_its_story(name):
    # GIVEN a session where memory ran out in one prompt while other prompts failed otherwise (validation errors of
    # outputs ComfyUI skipped, a later prompt's TypeError), or before any prompt was announced (Fooocus)
    doc = explain_log(text(name))
    # THEN the memory failure is the one explained, with a first step
    assert doc["failure"]["kind"] in ("vram", "system-ram") and doc["suggestions"]


def test_ctrl_c_said_by_python_after_prompts_ran_is_a_stop_and_not_a_failure():
    # GIVEN a notebook whose prompts all finished, then the user stopped the server: KeyboardInterrupt tracebacks
    doc = explain_log(text("Comack_colab_prompts_ok_keyboardinterrupt_on_stop_console.log"))
    # THEN nothing failed (an idle server was stopped)
    assert doc["failure"] is None


def test_a_stop_after_prompts_that_failed_leaves_their_failure_the_story():
    # GIVEN four prompts that failed ("ERROR: VAE is invalid: None"), then ^C while the fifth loaded its models
    failure = explain_log(text("Face-Anonymiser_colab_cpu_vae_invalid_encode_console.log"))["failure"]
    # THEN the failures are what the log is about, not the stop
    assert (failure["kind"], failure["message"]) == ("other", "ERROR: VAE is invalid: None")


def test_a_web_requests_traceback_in_a_gradio_app_is_no_failure_of_a_run():
    # GIVEN Fooocus on Colab: uvicorn's "Exception in ASGI application" and its traceback, then ^C mid-task
    failure = explain_log(text("Fooocus-AI_colab_image_prompt_ctrl_c_abrupt.log"))["failure"]
    # THEN the stop is what ended it, not the web request
    assert failure["kind"] == "abrupt" and failure["ending"] == "stopped"


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("ali-vilab-ACE_plus97_skip_no_node_class_mappings.log", "lack of NODE_CLASS_MAPPINGS"),  # ComfyUI's own line
        ("AIFSH-ComfyUI-DiffSynth-Studio13_diffutoonnode_stat_nonetype_popup.log", "stat: path should be"),  # "：Error"
        (
            "Ltamann-TBG-ETUR24_prompt_validation_failed_console.log",
            "could not convert string to float",
        ),  # "[ComfyUI]: "
        ("gongmspb_runpodserverless_output_missing_comfyui.log", "the image does not exist"),  # a worker's result
        ("comfyuirocm30_renamed_folder_rocm_sdk_launcher_not_found.log", "Unable to create process"),  # pip's launcher
    ],
)
def test_round_aps_errors_in_their_own_words_are_failures_and_not_memory(name, words):
    failure = explain_log(text(name))["failure"]
    assert failure is not None and failure["kind"] == "other" and words in failure["message"], name


def test_newer_comfyuis_skip_line_for_a_pack_without_nodes_is_its_failure():
    # ComfyUI since V3 nodes (nodes.py, load_custom_node) adds "or comfy_entrypoint (need one)"; a line as a container's
    # log printed it (a public log of a RunPod image)
    line = (
        "[WARNING] Skip /workspace/comfyui/custom_nodes_preset/ComfyUI-WD14-Tagger module for custom nodes due to the"
        " lack of NODE_CLASS_MAPPINGS or comfy_entrypoint (need one)."
    )
    failure = explain_log(line)["failure"]
    assert (failure["kind"], failure["source"]) == ("other", "import") and "NODE_CLASS_MAPPINGS" in failure["message"]


def test_a_bare_out_of_memory_is_the_hosts_where_the_log_names_no_gpu():
    # ComfyUI's own bare "out of memory" is most often its GPU's; a log that names no GPU, no GPU stack and no
    # ComfyUI anywhere (HandBrake's "ERROR: out of memory", HandBrake/HandBrake#5111; libtorrent's "file_mmap ...
    # error: Out of memory", linuxserver/docker-qbittorrent#193) ran short of the host's
    assert explain_log("x265 [info]: frame I: 12\nERROR: out of memory\n")["failure"]["kind"] == "system-ram"
    assert explain_log("Using device: cuda:0\nERROR: out of memory\n")["failure"]["kind"] == "vram"
    for comfy in (  # ComfyUI's own lines name it where nothing else does: its bare words stay the GPU's
        "!!! Exception during processing !!! out of memory\n",
        "Error occurred when executing UpscaleModelLoader:\n\nout of memory\n",
        "got prompt\nERROR: out of memory\n",
    ):
        assert explain_log(comfy)["failure"]["kind"] == "vram", comfy
    for name in ("handbrake_cli_x265_error_out_of_memory.log", "qbittorrent_docker_file_mmap_out_of_memory.log"):
        doc = explain_log((LOGS / name).read_bytes())
        assert (doc["failure"]["kind"], doc["suggestions"][0]["id"]) == ("system-ram", "pagefile"), name
    # OpenGL's out of memory is the GPU's, and its log names it ("GLError( ... description = b'out of memory',
    # baseOperation = glTexImage3D", napari/napari#4570)
    doc = explain_log((LOGS / "napari_3d-volume_gl-out-of-memory_teximage3d.log").read_bytes())
    assert doc["failure"]["kind"] == "vram"
