"""The line patterns of a ComfyUI log: exceptions, tracebacks, reports, validation errors, the
start-up banner, progress bars and how a process ends, in the languages users post in."""

from __future__ import annotations

import re

from ..judging.gpu_words import OOM_HANDLER_LINES
from ..judging.wordings import MEMORY_LOCK_REFUSED, NOT_A_FAILURE, WENT_ON
from .endings import COULD_NOT_START
from .records import _PROGRESS as _PROGRESS
from .records import Frame, LogFailure
from .text import COMPOSE_PREFIX

__all__: list[str] = []


_EXC_START = re.compile(r"!!! ?(?:Exception during processing|[^!\x00-\x7f][^!]{1,40}?) ?!!!\s?(.*)$")
"""ComfyUI's "!!! Exception during processing !!!", also as a browser translated it ("!!! 处理过程中发生异常 !!!")."""
_TRACEBACK = "Traceback (most recent call last):"
_NOTEBOOK_TRACEBACK = re.compile(
    r"^([A-Za-z_][\w.]*(?:Error|Exception|Interrupt|Exit))\s{2,}Traceback \(most recent call last\)$"
)
"""IPython's head of a traceback (Jupyter, Colab): the exception's type, then ``Traceback (most recent call last)``
(``MemoryError                               Traceback (most recent call last)``); its message comes last."""
_FRAME = re.compile(r'^\s*File "(.+)", line (\d+), in (.+?)\s*$')
_FAULT_FRAME = re.compile(r'^\s*File "(.+)", line (\d+) in (\S+)\s*$')
"""A frame of the stack faulthandler prints at a native crash (no comma before ``in``)."""
_EXC_LINE = re.compile(
    r"^((?:[A-Za-z_][\w]*\.)*(?:_?[A-Z]\w*(?:Error|Exception|Exit|Interrupt|Failed)|Exception|KeyboardInterrupt)"
    r"|(?:[A-Za-z_][\w]*\.)+(?:error|Error|Fail|OutOfResources))(?: \(see above for traceback\))?(?:(?::\s|：\s*)(.*)|[:：]?$)"
)
"""An exception's line: its type, then its message after a colon (a full-width one where a browser translated it; after
TensorFlow 1's "(see above for traceback)", where its session re-raised an op's error).
Besides Python's ``...Error``: a C extension's module error (``cv2.error``, ``struct.error``), Gradio's ``gradio.exceptions.Error``
(a web UI's re-raise of what its handler caught), onnxruntime's ``Fail``,
torch compile's ``BackendCompilerFailed``, triton's ``OutOfResources``."""
_CHAIN = (
    "During handling of the above exception, another exception occurred:",
    "The above exception was the direct cause of the following exception:",
)
_POPUP = re.compile(r"^(?:[^\w\s]{1,2} ?)?E?rror occurred when executing ([^:\s][^:]*?):(?:\s*$|[`\s])", re.IGNORECASE)
"""The old error dialog; a class may hold brackets, bars, a hash and symbols (ComfyUI-3D-Pack's ``[Comfy3D] Convert
3DGS to Mesh ...``, ELLA's ``T5TextEncode #ELLA``, comfyui-photoshop's ``🔹Photoshop ComfyUI Plugin``); a paste may
have lost its first letter ("rror occurred when executing ...")."""
_THREAD = re.compile(r"^Exception in thread .*\((prompt_worker)\):")
_TITLE_WORD = re.compile(r"[A-Za-z_]\w*")
"""A word that may be a node's class, in a line otherwise translated."""
_REPORT_FIELD = re.compile(r"^-\s+\*\*(.+?)(?:[:：]\*\*|\*\*\s*[:：])\s*(.*)$")
_VALIDATE = re.compile(r"^Failed to validate prompt for output (\S+?):?(?:$| \S)")
"""ComfyUI's line above a refused output's reasons (``execution.py``); older ones went on with the reason on the line."""
_VALIDATE_NODE = re.compile(r"^\*\s+(.+?)\s+(\S+):$")
_VALIDATE_REASON = re.compile(r"^-\s+(.+)$")
_IMPORT_FAILED = re.compile(
    r"\(IMPORT FAILED\): (.+)$|(?:^|\s)Cannot import (.+?) module for custom nodes: (.*)$"
    r"|(?:^|\s)Skip (.+?) module for custom nodes due to the lack of NODE_CLASS_MAPPINGS"
)
"""ComfyUI's lines for a custom node pack that failed to import (``nodes.py``): its list of import times at start-up
("0.0 seconds (IMPORT FAILED): ...\\custom_nodes\\PuLID_ComfyUI"), its warning with the error ("Cannot import ...
module for custom nodes: ..."), which a paste may hold without the traceback above it, and its warning for a pack
that imported but registers no nodes ("Skip ... module for custom nodes due to the lack of NODE_CLASS_MAPPINGS.")."""
_CLASS_VALIDATION = re.compile(r"^([A-Za-z_][\w .()|+-]{1,80}?)\s?:\s+-\s+(.+)$")
"""A node's class, then one of its validation errors as the error dialog lists it (``UltimateSDUpscale:  - Required
input is missing: force_uniform_tiles``)."""
_NODE_INFO = re.compile(r"An error occurred while retrieving information for the '(.+?)' node(?:\.$|: )")
"""ComfyUI's server (``server.py``, ``get_object_info``) on a node whose INPUT_TYPES raised, above the traceback."""
_MODEL_LINES = ("Requested to load ", "loaded ", "Model ", "Unloaded partially")
_TOTALS = re.compile(r"Total VRAM (\d+) MB, total RAM (\d+) MB")
_CGROUP = re.compile(r"RAM limited by cgroup to (\d+) MB")
_DEVICE = re.compile(r"^Device: (.+)$")
_CAPACITY = re.compile(
    r"total capac(?:i)?ty of ([\d.]+) ([GM])i?B|GPU \d+; ([\d.]+) ([GM])iB total capacity"
    r"|Device limit\s*:\s*([\d.]+) ([GM])iB"
)
_COMMAND = re.compile(r"(?:^|[>$#]\s*)(?:\S*[\\/])?python(?:3(?:\.\d+)?)?(?:\.exe)?\s+(?:-\S+\s+)*\S*main\.py\b(.*)$")
_USER_PATH = re.compile(r"[A-Za-z]:[\\/]+Users[\\/]+([^\\/:*?\"<>|\r\n]+?)[\\/]|/(?:home|Users)/([^/\s\"'<>]+)/")
_GENERIC_USERS = frozenset("user users admin administrator public default root me shared runner comfyui node".split())
"""Names in a home folder's place that identify no one (``/home/ComfyUI/execution.py``: ComfyUI installed there;
``/home/node/``: the official Node.js image's user)."""
_VERSION_LINES = (
    (re.compile(r"^ComfyUI version: (\S+)"), "comfyui"),
    (re.compile(r"^ComfyUI frontend version: (\S+)"), "frontend"),
    (re.compile(r"^(?:\*\* )?Python version: (\S+)"), "python"),
    (re.compile(r"^pytorch version: (\S+)"), "torch"),
    (re.compile(r"^xformers version: (\S+)"), "xformers"),
    (re.compile(r"^ROCm version: (.+)$"), "rocm"),
    (re.compile(r"^### ComfyUI Revision: (.+)$"), "comfyui_revision"),
)
_REPORT_VERSIONS = {"ComfyUI Version": "comfyui", "PyTorch Version": "torch", "Python Version": "python"}
_REPORT_NAMES = frozenset(
    {"Node ID", "Node Type", "Exception Type", "Exception Message", "Arguments", "OS", "Embedded Python"}
    | {"Name", "Type", "Index", "VRAM Total", "VRAM Free", "Torch VRAM Total", "Torch VRAM Free", "Python Version"}
    | set(_REPORT_VERSIONS)
)
"""The English report's field names; another name is a translated field, read by its value."""
_REPORT_FIELDS = tuple(
    f"{star}{name}:{end}"
    for name in ("Node ID", "Node Type", "Exception Type", "Exception Message")
    for star, end in (("- **", "**"), ("", " "))
)
"""The report's own fields, which open it where a paste was cut above its headings (``- **Node Type:** VAEDecode``)."""
_REPORT_OPENERS = ("ComfyUI Error Report", "Error Details")
"""The report's title and its first heading: either opens a report (a paste may start at the second)."""
_PLAIN_HEADINGS = frozenset(
    {
        *_REPORT_OPENERS,
        "Stack Trace",
        "System Information",
        "Devices",
        "Logs",
        "Attached Workflow",
    }
)
"""The report's headings as a browser copies the rendered report: no ``#``, alone on their lines."""
_PLAIN_FIELD = re.compile(r"^(?:[-*•]\s+)?([A-Z][A-Za-z ]{1,24}):\s*(.*)$")
"""A field of the rendered report (``Node Type: KSampler``, ``- Node Type: KSampler``: no ``**``)."""
_NODE_ID_VALUE = re.compile(r"^\d+(?::\d+)*$")
_CLASS_VALUE = re.compile(r"^[A-Za-z_][\w .()|+-]{1,80}$")
_EXCEPTION_VALUE = re.compile(r"^(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception|Interrupt|Exit)$")
_BANNER_HINT = re.compile(r"Total VRAM|RAM limited|vram state|Mac Version|AMD arch|ersion|Revision")
_BANNER_STARTS = ("Device: ", "Using ", "** ")
"""With :data:`_BANNER_HINT`, the cheap test before a start-up banner's line is read (anchors and character
classes among the alternatives would make it three times slower)."""
_LOADER_LINES = (
    "model weight dtype",
    "model_type ",
    "VAE load device",
    "CLIP/text encoder model load device",
    "Working with z of shape",
    "loaded straight to GPU",
    "missing {",
    "left over keys",
    "clip missing:",
    "Attempting to release mmap",  # ComfyUI-GGUF copies offloaded weights out of the file's mapping
    "Loading weights [",  # AUTOMATIC1111's, Forge's and Fooocus' checkpoint load ("Loading weights [06c50424] from ...")
    "Loading weights from ",  # other programs' ("Loading weights from /content/.../model.safetensors")
    "Loading model from ",
    "Loading preprocessor: ",  # sd-webui-controlnet's ("Loading preprocessor: canny, model: control_sd15_canny")
)
_DIGITS = re.compile(r"\d+")
_SUMMARY = ("popup", "report", "message")


def _message_key(message: str) -> str:
    first = message.strip().splitlines()[0].strip("` ") if message.strip() else ""  # (a copy's code marks may go)
    return _DIGITS.sub("#", " ".join(first.lower().split()))[:120]  # a port or a size may differ between copies


def _frame_anchor(frames: list[Frame]) -> str:
    return frames[0].path if frames else ""


def _known(s: str) -> bool:
    """A line that starts something of its own (so it cannot continue an exception's message)."""
    return bool(
        s == "got prompt"
        or s.startswith(
            (
                "Prompt executed in",
                *OOM_HANDLER_LINES,
                "Requested to load",
                "loaded ",
                "!!!",
                "Traceback (",
                "Error occurred when executing",
                "# ComfyUI",
                'File "',
                "During handling",
                "The above exception",
            )
        )
        or _PROGRESS.search(s)
    )


def _merge(into: LogFailure, other: LogFailure) -> None:
    """Two reports of one failure: keep the richer fields of each."""
    into.class_type = into.class_type or other.class_type
    into.node_id = into.node_id or other.node_id
    into.exception_type = into.exception_type or other.exception_type
    if len(other.message) > len(into.message) and _message_key(other.message) == _message_key(into.message):
        into.message = other.message
    into.message = into.message or other.message
    if len(other.frames) > len(into.frames):
        into.frames = other.frames
    into.causes = into.causes or other.causes
    into.oom_unload = into.oom_unload or other.oom_unload
    into.before = into.before or other.before
    into.before_hint = into.before_hint or other.before_hint
    if into.source in ("popup", "report", "message") and other.source not in ("popup", "report", "message"):
        into.source, into.line = other.source, other.line
    into.evidence = (into.evidence + [e for e in other.evidence if e not in into.evidence])[:12]


# ---------------------------------------------------------------------------- the reader's tables
_MARKUP = re.compile(r"^</?(?:details|summary)\b[^>]*>(?:.*</summary>)?$", re.IGNORECASE)
"""A ``<details>`` or ``<summary>`` tag around a paste in an issue (``<details><summary>log</summary>``)."""
_COMPOSE = re.compile(rf"^(?:>\s?)?{COMPOSE_PREFIX}")
"""docker compose's prefix: the service's name and a bar (also in a quoted paste)."""
_API_FIELD = re.compile(
    r"""['"](node_type|class_type|exception_type|exception_message|node_id|message|details|type)['"]:\s*"""
    r"""(?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")"""
)
"""A field of ComfyUI's error payload as Python or JSON prints it (either quote)."""
_WORKER_ERROR = re.compile(r"Node Type: ([^,]{1,120}), Node ID: ([^,]{1,40}), Message: (.*?)(?:\"?\s*[\]}]|$)")
"""A serverless worker's line for ComfyUI's ``execution_error`` (RunPod's worker-comfyui: ``Workflow execution error:
Node Type: VAEDecode, Node ID: 8, Message: ...``), alone or in its JSON reply's ``details``."""
_EXECUTING = re.compile(r"^Executing node (\w{1,40}), title: .{0,200}, class type: ([^\s,]{1,120})$")
"""An API client's line for ComfyUI's ``executing`` event, with the node's class (Replicate's cog-comfyui)."""
_PROMPT_REFUSALS = (
    "invalid_prompt",
    "missing_node_type",
    "prompt_no_outputs",
    "prompt_outputs_failed_validation",
    "no_prompt",
)
"""The ``type`` of ``/prompt``'s refusal (HTTP 400) in ComfyUI's ``server.py`` and ``execution.py``
(``missing_node_type`` since 0.3.6x: a node's class that no pack installed defines)."""
_API_CLASS_LINE = re.compile(r'^"(?:node_type|class_type)":\s*"([^"\\]+)",?$')
"""The node's class on a line of its own: the error payload printed as indented JSON (StabilityMatrix)."""
_API_NODE = re.compile(r"""['"]node_errors['"]:\s*\{\s*['"]([^'"]+)['"]""")
"""The first refused node's id in ``/prompt``'s ``node_errors``."""
_LAUNCH = re.compile(r"main\.py|python|\.bat\b|comfy|entry_with_update|launch")
"""A command that starts ComfyUI (or a program running it), typed at a shell's prompt."""
_ONE_SHOT = re.compile(
    r"\s-c\s|-m\s+pip\b|^pip\d?\s|\s--version\b|^\"?git\s"
    r'|^"?(?:[^"\s]*[\\/])?(?!python|comfyui)[\w.-]+\.exe\b'  # a Windows program of its own (llama.cpp's quantizer)
    r"|^comfy(?:\s+--?[\w-]+(?:[= ][^\s-]\S*)?)*\s+(?:node|model|install|update|env|which|set-default|tracking|standalone)\b"
)
"""A command that runs and returns (``python -c "..."``, pip, a version check, git's ``git clone .../ComfyUI-Manager``,
a program other than Python or ComfyUI's own, ``llama-quantize.exe ".../ComfyUI/models/..."``, comfy-cli's ``comfy node
install-deps`` and the like, not its ``comfy launch``): back at the prompt, nothing ended."""
_FALLBACKS = ("Error running sage attention: ",)
"""Errors ComfyUI caught and went on past: its SageAttention wrapper logs why the kernel failed ("out of resource:
shared memory", "no kernel image is available") and runs PyTorch's attention instead (``comfy/ldm/modules/
attention.py``, ``attention_sage``)."""
_NAN_CAST = "invalid value encountered in cast"
"""numpy's RuntimeWarning as an image is saved or previewed (``np.clip(i, 0, 255).astype(np.uint8)``): its pixels
were NaN, so it is black (a VAE or attention in half precision overflowed). Nothing raised, but the run failed."""
_NAN_LATENT = "Encountered NaN in Latent"
"""Forge Neo's own check of the latent before it decodes it: the image will be black, as above."""
_NOTICES = (
    "Found comfy_kitchen backend ",
    "comfy-aimdo failed to load: ",
    "ERROR: pip's dependency resolver does not currently take into account",
    "Error caught was: ",
    "ALSA lib ",
    "error: XDG_RUNTIME_DIR not set",
)
"""Lines that quote an error what printed them went on without: comfy-kitchen's probe of its backends (newer
ComfyUI) names why one is unavailable (``'unavailable_reason': 'DLL load failed while importing _C: ...'``);
comfy-aimdo's loader, on a machine without its GPU library (``libcuda.so.1: cannot open shared object file``),
logs it and ComfyUI runs without dynamic VRAM; pip lists the conflicts among the packages it installed beside
others, and installed them (a notebook's set-up cell); xformers says why Triton's kernels are off ("A matching Triton
is not available ...", then ``Error caught was: No module named 'triton'``) and runs without them; ALSA's sound
library and SDL, on a machine or container without a sound card or a desktop session, say which of their devices and
settings they did not find ("ALSA lib confmisc.c:855:(parse_card) cannot find card '0'", "error: XDG_RUNTIME_DIR not
set in the environment.") and the program goes on without sound."""
_DISPLAYED = re.compile(r"^[a-z][\w ,.'()/-]{2,80}: ([A-Z]\w{0,60}(?:Error|Exception|Interrupt))$")
"""AUTOMATIC1111's ``errors.display`` (Forge's, reForge's): what it was doing and the exception's type alone, above the
traceback it prints ("loading stable diffusion model: OutOfMemoryError", "generating image for xyz plot:
AcceleratorError"): where a paste cuts that traceback before its last line, its type is still said."""


def glog_level(levels: str) -> str:
    """The prefix glog and TensorFlow's logger put before a line at one of ``levels`` (``"IW"``: info, warning; ``"F"``:
    fatal): ``W .../dso_loader.cc:64] ``, ``2021-05-20 10:09:06.630330: F .../nvptx_compiler.cc:478] ``,
    ``I0612 10:11:12.123456  1234 file.cc:12] ``."""
    return rf"(?:[\d-]+ [\d:.]+: )?(?-i:[{levels}])(?:\d{{4}} [\d:.]+ +\d+)? [\w/.+-]+:\d+\] "


_WARNS = re.compile(r"(?i)warn(?:ing)?\b\W|.*?\.pyw?:\d+: \w*Warning: |" + glog_level("W"))
"""A line whose own first word says it warns ("Warning: caught exception 'Found no NVIDIA driver ...', memory monitor
disabled": AUTOMATIC1111's web UI going on without its monitor), or its glog level (TensorFlow's ``W path.cc:64] ``):
what it quotes did not stop anything."""
_CONTAINER_EXIT = re.compile(
    r"(?i)(?<!command )(?<!process )(?<!\) )exited with (?:code|status) 137|exit code: 137|exitcode: 137(?!,)"
    r"|\bexited \(137\)|exitcode=137"
    r"|terminated with exit code \(137\)"
    r"|exited with code exit status 137"  # CircleCI's step in its Docker executor's container
    r"|container stopped with exit code 137"  # dask-gateway's for its scheduler's pod
    r"|returned a non-zero code: 137"  # docker build's step ("The command '/bin/sh -c pip3 install ...' returned ...")
)
"""How docker, compose and Kubernetes report a container's end by SIGKILL (``comfyui-1 exited with code 137``,
``Exit Code: 137``, a pod status' ``exitCode: 137``, ``Exited (137)``, Flyte's pod ``terminated with exit code (137)``,
CircleCI's ``Exited with code exit status 137``); an IDE's "Process finished with exit code 137", a build tool's
"Command exited with code 137." (ocamlbuild's), HAProxy's master on its worker ("Current worker (25) exited with code
137 (Killed)"), a JavaScript error object's field (execa's ``exitCode: 137,`` for the command it ran) are a host's
process."""
_CONTAINER_PROMPT = re.compile(r"(?:^|[\s)])[\w.-]+@[0-9a-f]{12}:[~/]|^ ?---> Running in [0-9a-f]{12}$")
"""A shell's prompt on a host named by 12 hex digits (``root@e56d3dd32e2a:/workspace/ComfyUI#``): Docker names a
container's host by its short ID — a rented GPU pod, a container's shell; and ``docker build``'s step running in one
(`` ---> Running in a2fc04a918b0``)."""
_NATIVE_STACK_LINE = re.compile(r"^(?:#\d+ +)?(?:0x)?[0-9A-Fa-f]{12,32}\b[ ,]|\+ 0x[0-9A-Fa-f]+ byte\(s\)")
"""A frame of a native stack as crash handlers print it (``0x00007FFAD0F10CB9, ...c10.dll(0x...) + 0x10CB9 byte(s),
?allocate@DefaultCPUAllocator@c10@@...``, gdb's ``#3 0x00007f...``): a function's name, never an error's words — an
allocator among them is where the crash was, not memory running out."""
_CPP_TERMINATE = ("terminate called after throwing", "what():")
"""C++'s std::terminate and the exception it names: nobody caught it, the process aborts. Of a ``std::bad_alloc``
that is a crash, not a memory verdict: on Linux, whose allocator overcommits, it is a request beyond anything RAM
and swap could hold (a corrupt size, a bug) far more often than memory running out. (A torch error it names —
``what():  CUDA out of memory ...`` — is still read for what ran out.)"""
_NODE_THREW = ("This node threw an error during execution", "Node threw an error during execution")
"""The newer frontend's error toast (its error catalog's ``execution_failed``), under "<node> failed"."""
_CLASS_PREFIX = re.compile(r"^([A-Z][A-Za-z0-9_]{2,63})\s?:\s+(.+)$")
"""``KSampler : XPU out of memory ...``: an old dialog's node and message on one line."""
_BARE_CLASS = re.compile(r"^(?=.*[a-z])(?:[A-Z][a-z0-9]*_?[A-Z][A-Za-z0-9_]{1,62}|[A-Z][a-z0-9]+(?:_[a-z0-9]+){1,6})$")
"""A node's class alone on a line (two capitals at least, not all: ``KSampler``, ``Propainter_Sampler``; not ``ERROR``;
or one capital and words joined by underscores: ``Joy_caption_two``)."""
_QUALIFIED_CLASS = re.compile(
    r"^[A-Z][a-z0-9]*[A-Z_][A-Za-z0-9_]{1,40}(?: [A-Z][\w.]*){0,2} \([A-Z][a-z]+(?: [A-Za-z]+){0,2}\)$"
)
"""A pack's node titled with its qualifier in brackets, alone on a line, its first word a class's (two capitals: the
efficiency nodes' ``KSampler (Efficient)``, ``KSampler Adv. (Efficient)``; not a report's ``Translated Report (Full
Report Below)``): an error dialog's title."""
_CLASS_WORD = re.compile(r"^([A-Z][A-Za-z0-9_]{2,63}) +(.+)$")
"""A node's class, a space, the message: a one-line paste that lost its colon."""
_VAE_CODING = r"(?i)\bvae\b.{0,20}\b(de|en)cod"
_VAE_WORK = re.compile(_VAE_CODING + r"(?:e|ing)\b|(?i:\b(de|en)coding \d+ latents?\b)")
"""A line that says a VAE decode (or encode) is under way: a pack's own progress line, stable-diffusion.cpp's
"decoding 1 latents"."""
_VAE_BAR = re.compile(_VAE_CODING + r"(?:e|ing|er)\b")
"""A progress bar's label that says a VAE decodes (encodes), its decoder's too: ``VAE encoding:``, the tiled VAE's
``[Tiled VAE]: Executing Decoder Task Queue:`` (a line that only names a decoder, "skipping VAE decoder load", is
not one at work)."""
_MANAGER_LINES = ("Requested to load ", "loaded completely ", "loaded partially ", *_LOADER_LINES)
"""Lines ComfyUI's model manager prints (a line of them that is short and names no error has nothing else)."""
_INTERRUPT_REQUESTS = (
    "Interrupting prompt ",
    "Global interrupt (no prompt_id specified)",
    "Cancelling running prompt ",
)
"""ComfyUI's server on a user's request to interrupt (``POST /interrupt``; newer ones' ``POST /api/jobs/{id}/cancel``)."""
_OUTPUT_REASONS = (
    "Value not in list",
    "Required input is missing",
    "Return type mismatch between linked nodes",
    "Exception when validating node",
    "Exception when validating inner node",
    "Custom validation failed for node",
    "Bad linked input, must be",
)
"""Why ComfyUI refused an output (``execution.py``'s ``validate_inputs``), each listed under it as ``  - reason: ...``."""
_VALIDATION_MESSAGES = (
    *_OUTPUT_REASONS,
    "Prompt has no outputs",
    "Cannot execute because a node is missing the class_type property",
    "Cannot execute because node ",  # "... Inference_Core_LayeredDiffusionApply does not exist."
    "invalid prompt: ",  # the server's own line for a prompt it refused (its dict names the reason)
)
"""ComfyUI's own validation messages (``execution.py``), as its error dialog shows them alone on a line."""
_OUT_OF_RANGE = re.compile(r"^Value \S+ (?:bigger than max|smaller than min) of \S+")
_LOOSE_ERROR = re.compile(
    r"\] Assertion `.*` failed|Error submitting a packet to the muxer|Error: Command failed: "  # CUDA's, ffmpeg's, Node's
    r"|ComfyUI (?:execution )?error: |^Server error: |^(?i:server execution error): |INTERNAL ASSERT FAILED at\b|size mismatch for "
    r"|CUDA error(?: \([^)]{1,200}\))?: |HIP error: |nvrtc: error: |no kernel image is available|Error\(s\) in loading state_dict"
    r"|^(?:CUDA|HIP)[ -]?(?:错误|錯誤|エラー|오류|[Ff]ehler|[Ee]rreur|[Ee]rrore?|[Оо]шибка|[Hh]ata|[Ll]ỗi) ?[:：]"  # translated
    r"|Error Code \d+: |Error during server start|[Cc]ould not bind on address|Cmd\('[\w.-]+'\) failed"  # TensorRT's; Krita's; GitPython's
    r"|has no len\(\)|not enough space in the (?:context's memory pool|scratch memory pool|buffer) \(needed"  # a TypeError's;
    # ggml's fixed pools and buffers (not RAM)
    r"|^MIOpen\(HIP\): Error |backend compiler failed build|^Uncaught (?:\(in promise\) )?(?:\w*(?:Error|Exception)\b|abort\()"
    r"|Maximum call stack size exceeded"  # MIOpen's; Intel's GPU compiler's; the browser console's (an Emscripten
    # module's abort too: "Uncaught (in promise) abort("Cannot enlarge memory arrays. ...")")
    r"|missing \d+ required (?:positional|keyword-only) argument|unexpected keyword argument|object has no attribute"
    r"|object is not (?:a mapping|subscriptable|callable|iterable)|No module named|is not defined"
    r"|index out of range|values to unpack|Permission denied|No such file or directory|LoadLibrary failed"
    r"|没有那个文件或目录|Datei oder Verzeichnis nicht gefunden|Aucun fichier ou dossier de ce type"  # ENOENT in glibc's
    r"|No existe el archivo o el directorio|Нет такого файла или каталога"  # Chinese, German, French, Spanish, Russian
    r"|DLL load failed|cannot import name|Failed to execute startup-script|\(non OOM\)"
    r"|shapes cannot be multiplied|must match the size of tensor|Expected all tensors to be on the same device"
    r"|Output size is too small"  # torch's convolution or pooling given an input smaller than its kernel
    r"|was unable to start correctly \(0x"  # Windows' dialog for a program whose DLLs failed to start (0xc0000142),
    r"|"
    + COULD_NOT_START  # its exit code, or a DLL's not found, or its entry point's
    + r"|^\[ONNXRuntimeError\] : \d+ : "  # ONNX Runtime's own status, its exception's name cut off
    r"|should be the same|expected scalar type|Sizes of tensors must match|not implemented for '"
    r"|Torch not compiled with CUDA enabled|No CUDA GPUs are available|Found no NVIDIA driver"
    r"|Error while deserializing header|invalid load key|PytorchStreamReader failed|(?:Unexpected|Missing) key\(s\) in"
    r"|not currently implemented for the MPS device|MPS framework doesn't support|Cannot convert a MPS Tensor"
    r"|unsupported operand type|invalid literal for|division by zero|exec format error|channels, but got \d+ channels"
    r"|out of resource: shared memory|Could not find a version that satisfies the requirement"
    r"|codec can't (?:de|en)code|was unexpected at this time\."  # UnicodeError's; cmd's syntax error in a .bat
    r"|is not recognized as (?:the name of a cmdlet|an internal or external command)"  # PowerShell's, cmd's: no such program
    r"|could not be (?:found|located) in the dynamic link library|^The code execution cannot proceed because"
    r"|Storage size calculation overflowed"  # torch: a tensor's size past 2^63 bytes (a size input gone wild)
    r"|No operator found for `|^\[(?:WinError|Errno) \d+\] "  # an OSError's message without its type ("[WinError 1314] A required privilege ...")
    r"|^(?:[a-z_][a-z0-9_]*\.){1,6}[A-Z][A-Za-z0-9]+: \S"  # a qualified exception ("torch._dynamo.exc.BackendCompilerFailed: ...")
    r"|^(?:[a-z_][a-z0-9_]*\.){1,6}[A-Z]\w*(?:Error|Exception):$"  # ... its message on the lines below ("subprocess.CalledProcessError:")
    r"|\b(?:cuda|hip)Error[A-Z]\w+|\b(?:CUDA|UR|ZE)_(?:RESULT_)?ERROR_[A-Z_]+"  # a runtime's own error code, alone
    r"|\bCL_(?:OUT_OF_RESOURCES|INVALID_[A-Z_]+|BUILD_PROGRAM_FAILURE|DEVICE_NOT_(?:FOUND|AVAILABLE)|MAP_FAILURE"
    r"|PLATFORM_NOT_FOUND_KHR)\b"  # OpenCL's (hashcat's "clCreateContext(): CL_OUT_OF_RESOURCES"): not memory by itself
    r"|\bwith error VK_ERROR_[A-Z_]+$"  # Unreal Engine's Vulkan check, under its "LowLevelFatalError" (then it crashes)
    r"|^ ?CUDA Error: "  # darknet's check of a CUDA call ("CUDA Error: invalid argument"), before it asserts
    r"|Unhandled exception has occurred in your application|User specified autocast device_type must be"  # .NET
    # WinForms' dialog ("... Object reference not set to an instance of an object."); torch's autocast refusing a device
    r"|^g?make(?:\[\d+\])?: \*\*\* (?!\[)"  # make's own fatal error, in any language ("make: *** No rule to make
    # target 'cuda12x'.  Stop."; not a recipe's "make: *** [Makefile:28: all] Error 1", the error above it is the one)
    r"|^Unable to load any of \{|Cannot load symbol cudnn"  # cuDNN 9's loader: its library missing (CTranslate2's
    # faster-whisper: "Unable to load any of {libcudnn_cnn.so.9.1.0, ...}", "Invalid handle. Cannot load symbol ...")
    r"|could not create cudnn handle"  # TensorFlow's cuDNN that did not start
    r"|\.py: error: "  # argparse refusing ComfyUI's command line ("main.py: error: unrecognized arguments: ...")
    r"|\[ERROR\] |❌"  # a pack's or a launcher's own error mark
    r"|^[0-9a-f]{6}\|ERR +\|"  # aria2's result row of a download that failed (a container's models fetched at start)
    r"|(?:^|[\s*\]|])ERROR: \S"  # ComfyUI's own raised wording ("ERROR: clip input is invalid: None"), pip's
    r"|(?i:failed|error)[^\[]{0,40}: \[(?:WinError|Errno) \d+\] "  # an OSError quoted in a line saying what failed
    r"|We couldn't connect to '|need to be on the same GPU|Unexpected architecture type in GGUF file"  # the Hub's; bitsandbytes'; ComfyUI-GGUF's
    r"|\bspawn \S.* E(?:NOENT|ACCES|PERM)\b"  # Node's, in an Electron launcher: the program it starts is not there
    r"|returned non-zero exit status -?\d+|(?:^|\s)- ERROR - \S"  # subprocess' CalledProcessError; logging's "name - ERROR - "
    r"|the following node types were not found|the number of sizes provided|not found\. Please install"  # the frontend's; torch's; a pack's
    r"|^Unrecognized model in "  # transformers' AutoConfig, its ValueError's type cut off: a model's folder without its config
    r"|\((?:[a-z_]\w*\.)+[A-Z]\w*(?:Error|Exception)\) |\b[45]\d\d, message='"  # SQLAlchemy's wrapped error; aiohttp's HTTP one
    r"|^Could not import '|ComfyUI not running on specified address"  # a pack's own import error; comfy-cli's
    r"|^Fatal error in launcher: "  # a Windows console script's launcher (pip's): its Python is not where it was
    r"|'status': 'error', 'message': '"  # a serverless worker's result (runpod-worker-comfy's handler)
    r"|\bWORKER TIMEOUT \(pid:"  # gunicorn's arbiter, about to kill a worker that did not answer in time
    r"|too much time to die\.\.\.NO MERCY"  # ... uWSGI's master, about to kill one that would not stop
    r"|\b887A000[5-7]\b|DXGI_ERROR_DEVICE_|GPU device instance has been suspended"  # Direct3D's device removed, hung, reset
    r"|exceeds the max buffer size limit"  # WebGPU's createBuffer over the device's maxBufferSize (a limit it asked for)
    r"|Could not locate \S+\.dll\b|vkQueueSubmit failed|exceeded your GPU quota"  # cuDNN's, cuBLAS' missing DLL; ncnn's
    # Vulkan queue (device lost); ZeroGPU's quota (Hugging Face Spaces)
    r"|CUDA kernel failed : "  # a CUDA extension's own check (pointnet2_ops: "... : invalid device function")
    r"|Watchdog caught collective operation timeout"  # NCCL's watchdog in torch.distributed (a collective hung)
    r"|driver version is insufficient for CUDA runtime version"  # cudaErrorInsufficientDriver, as CUDA words it
    r"|^(?!EP Error)[^\n]*?CUDA wasn'?t able to be loaded"  # ONNX Runtime's CUDA provider ("CUDA_PATH is set but CUDA
    # wasnt able to be loaded"; after "EP Error" it fell back to the CPU and went on)
    r"|is larger than buffer maximum of"  # llama.cpp's Metal: one buffer over the GPU's largest (its size, not memory)
    r"|^" + glog_level("F")  # glog's, TensorFlow's fatal level (its error level also logs what does no harm: "E ...
    # Unable to register cuDNN factory")
)
"""Python's and the libraries' own wording of the errors users paste without the exception's type."""
_SWARM_ERRORED = "ComfyUI errored: "
"""SwarmUI's words before the error ComfyUI answered it with (a refused prompt's JSON, on the lines under it)."""
_SAYS_FAILED = re.compile(
    r"(?i)\b(?:errors?|errored|fail(?:ed|s|ure)?|exception|cannot|can't|could ?n[o']t|unable|invalid|not found"
    r"|missing|does(?: not|n't) exist|not (?:allowed|supported|installed|running)|unsupported|denied|refused"
    r"|does(?: not|n't) (?:have )?support|unexpected|must be|not enough|abort(?:ed)?|crash(?:ed)?|traceback"
    r"|no such file|command not found|syntax error|unsatisfiable|is incorrect)\b"
    r"|失败|错误|錯誤|报错|失敗|エラー|오류|실패|ошибк|не удалось|\b(?:fehler|erreur|errore|falha|fallo|lỗi|hata)\b"
)
"""Words that say something went wrong, in the languages users post in: a paste with nothing ComfyUI prints in it
(a pack's or a tool's own lines, an installer's, a launcher's, a popup's text) is pasted for its error, whatever
the wording ("[AnimateDiffEvo] - ERROR - No motion models found", "Required input is missing: force_uniform_tiles")."""
_HARMLESS = re.compile(
    r"(?i)\bFailed to (?:connect to the bus|adjust OOM score of renderer)\b|\bPassthrough is not supported, GL is\b"
    r"|\bLost UI shared context\b"
    r"|\b" + re.escape(MEMORY_LOCK_REFUSED[1]) + r" \d+ byte memory area\b"
)
"""Complaints of programs that run all the same, whatever their line's level and words: Chromium starting in a
container (no D-Bus, no right to set its renderers' OOM scores, no GPU, no GL context for its UI compositor: "ERROR:bus.cc
(393)] Failed to connect to the bus: ... No such file or directory", then "DevTools listening on ws://..."); JACK, whose
memory the limit on locked memory keeps unlocked ("Cannot lock down 82278944 byte memory area (Cannot allocate memory)":
RLIMIT_MEMLOCK, not memory running out)."""
_NOT_A_FAILURE = re.compile(
    r"(?i)warn|\binstead\b|trying again|\bretry(?:ing)?\b|fall(?:ing)? ?back|\bdefaulting to\b|\bskipp(?:ing|ed)\b|\bignored?\b"
    r"|\bno errors?\b|"
    + "|".join(map(re.escape, (*WENT_ON, NOT_A_FAILURE)))
    + r"|^\W*(?:clip|unet|vae|model) (?:missing|unexpected) ?:|\bEP Error\b|\(Triggered internally at "
    r"|^(?:" + "|".join(map(re.escape, _NOTICES)) + r")|\bencountered in (?!cast)\w"
    r"|\b(?:(?:will|may|might|could) )+be slower\b"  # Wan2GP's "Unable to pin data ... Transfer ... will may be slower."
    r"|\bno reserved RAM left\b"  # Wan2GP's notice that a LoRA stays unpinned ("Unable pin data of ... to reserved RAM")
    r"|\[[IWV]:onnxruntime[:,]"  # ONNX Runtime's info and warning levels ("[W:onnxruntime:, transformer_memcpy.cc:74
    # ApplyImpl] 12 Memcpy nodes are added ... (including unable to run CUDA graph)")
    r"|^Using the latest cached version of"  # Hugging Face datasets offline: "... since X couldn't be found on the Hub"
    r"|can't use mmap because"  # llama.cpp, reading a model it cannot map ("... tensors are not aligned; convert to ...")
    r"|cannot meet free memory target"  # ... its fit of a model to the devices, which then offloads layers
    # ("common_params_fit_impl: cannot meet free memory target of 1024 MiB, need to reduce device memory by 4443 MiB")
    r"|\bxformers (?:is )?not (?:installed|available)\b"  # an optional accelerator an app runs without (InvokeAI's)
    r"|when one has already been registered\b"  # TensorFlow, JAX: cuDNN's, cuFFT's, cuBLAS' plugin registered twice
    r"|\b(?:will|may|might|could) fail if\b"  # a forecast (Ray's disk monitor: "Object creation will fail if spilling ...")
    r"|\bmemory limited without swap\b|\bno swap limit support\b"  # docker's warning on a kernel that has no swap
    # accounting ("Your kernel does not support swap limit capabilities ... Memory limited without swap."): it runs all the same
    r"|^NOTE: "  # BitBake's level for what it is doing ("NOTE: Resolving any missing task queue dependencies")
    r"|\bhas failed to exit gracefully and has been force exited\b"  # Jest, after its tests: a worker left a handle open
    + "|"
    + _HARMLESS.pattern.removeprefix("(?i)")
    + r"|\b(?:may|might|could) cause a memory leak\b"  # pypdfium2 at exit: "Cannot close object, library is destroyed. ..."
    r"|\berror:? \d+\.\d+$"  # a metric named error, its value (llm-compressor's GPTQ: "METRIC - error 77.41")
    r"|(?-i:^(?=\d*[a-f])[0-9a-f]{7,12} (?=[\w\[(]))"  # a commit's subject in git's one-line log ("4965c0e2 WAN: Fix cache VRAM
    # leak on error (#10141)": an update's list of what changed)
    r"|^" + glog_level("IW")  # glog's level, TensorFlow's: info, warning ("W tensorflow/.../dso_loader.cc:64] Could not
    # load dynamic library 'cudart64_110.dll'")
)
"""What such words say in a line that is not a failure: a warning (torch's own end "(Triggered internally at
...)"), a fallback ComfyUI or a library went on with (onnxruntime's "EP Error" before it falls back to the CPU),
an exception Python ignored, ComfyUI's list of a checkpoint's missing or unexpected keys, "no errors", the
start-up lines that quote an error ComfyUI went on without (:data:`_NOTICES`), numpy's floating-point warning
("overflow encountered in multiply") where a paste kept its text but not its name (:data:`_NAN_CAST` aside), a line
that says the work goes on, only slower, or what would fail if it came to that."""
_QUIET_LEVEL = re.compile(r"(?i)warn|info|debug|trace|notice")
"""A logger's level below an error's, in the prefix before a line."""
_FAILED = re.compile(r"\b(?:[Ee]rror|[Ff]ailed|[Ee]xception)\b")
"""A line logged at the level error that says something failed (not the stderr a logger copied at that level)."""
_LOGURU_ERROR = re.compile(r"(?:^|\| )(?:ERROR|CRITICAL) *\|")
"""loguru's level in its prefix, an error's ("2023-10-19 11:33:14.591 | ERROR    | module:function:12 - ")."""
_LOGGED_ERROR = re.compile(r"^ERROR:[\w.]*:(?!\s*$)")
"""Python's logging at its default format, at the level ERROR (``ERROR:root:...``)."""
_VAE_MODEL = re.compile(r"VAE|^Autoencod|^AutoEncoder", re.IGNORECASE)
"""A VAE's model class in ComfyUI's "Requested to load" (``AutoencoderKL``, ``AutoencodingEngine``, ``WanVAE``)."""
_STARTUP = ("[START] Security scan", "** ComfyUI startup time:", "Prestartup times for custom nodes", "Total VRAM ")
"""What ComfyUI (and the Manager it is most often installed with) prints first when it starts."""
_BARE_MEMORY_ERRORS = ("MemoryError", "OutOfMemoryError")
"""Exception types that name memory running out without a message (Python's ``MemoryError``, torch's
``OutOfMemoryError`` of a cut paste)."""
_RUBY_RAISE = re.compile(
    r"^\S[^:]*(?::[^:]+)?:\d+:(?:in [`'][^`']*'[:]?)?\s*(.+?)"  # its file and line, the method, the message
    r" \(((?:[A-Z]\w*::)*(?:[A-Z]\w*(?:Error|Exception)|E[A-Z0-9]+))\)$"  # its class: "(SystemStackError)", "(Errno::ENOSPC)"
)
"""A Ruby program's uncaught exception, its place first and its class last: ``.../file.rb:37:in `unlink': Directory not
empty @ dir_s_rmdir - assets/slick (Errno::ENOTEMPTY)``, ``.../ruby_executable_hooks:15: stack level too deep
(SystemStackError)``."""
_RUST_PANIC = re.compile(r"thread '[^']{1,80}' panicked at (?:'(.+?)(?:', \S+:\d+:\d+)?|.+?:\d+:\d+:(?: (.+))?)$")
"""A Rust program's panic (an error, its message quoted in it before Rust 1.73 — its closing quote and place on a
later line where the message has several — on the next lines since, or on its line where a page flattened the paste):
``thread 'tokio-runtime-worker' panicked at ...\\client.rs:298:41:`` above ``called `Result::unwrap()` on an `Err`
value: BufferTooBig(2156988480)``."""
_CUT_TORCH_OOM = re.compile(r"torch\.(?:cuda\.)?OutOfMem(?:o(?:r(?:y(?:E(?:r(?:r(?:o)?)?)?)?)?)?)?$")
"""A line that is only torch's out-of-memory exception cut inside its name (``torch.cuda.OutOfMemoryErro``): where an
excerpt of a fixed length ends."""
_ANSWERED = re.compile(r'"POST (?!\S*/upload/)\S+ HTTP/[\d.]+" 2\d\d\b')
"""An access log's line for a request answered with success (werkzeug's ``"POST /api/v1/images/text2img HTTP/1.1" 200
-``, uvicorn's ``"POST /generate HTTP/1.1" 200 OK``): a server that wraps ComfyUI's code sent the result (an upload's
answer is none)."""
