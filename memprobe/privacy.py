"""Make a run shareable: no prompt text, no filesystem paths or user names, no client ids.

Works on API-format prompts (``{id: {class_type, inputs}}``), on UI-format workflows (``nodes``
with ``widgets_values``, subgraph ``definitions``) and on free text (error messages, arguments).
Model files keep only their file name: ``D:\\Models\\sdxl\\juggernaut.safetensors`` becomes
``juggernaut.safetensors``.
"""

from __future__ import annotations

import functools
import getpass
import os
import re
from typing import Any

__all__ = [
    "PROMPT_MARK",
    "TEXT_MARK",
    "PATH_MARK",
    "scrub_text",
    "scrub_all",
    "sanitize_prompt",
    "sanitize_workflow",
    "sanitize",
]

PROMPT_MARK = "[prompt removed]"
TEXT_MARK = "[text removed]"
PATH_MARK = "[path]"

_FILE = r"[^\s\"'<>|*?\\/]+"
# folders may hold spaces ("D:\\Stable Diffusion\\ComfyUI"): a run of text is a folder when a separator follows it
_WINDOWS_PATH = re.compile(
    r"(?:(?:\b|(?<=-[A-Za-z]))[A-Za-z]:|\\\\[^\s\\/]+)[\\/]+(?:[^\"'<>|*?\\/:\r\n]+[\\/]+)*(" + _FILE + ")?"
)  # (a drive also right after a compiler's flag: "-LT:\\Program Files\\...")
# a quoted path is a path up to its closing quote, spaces and doubled backslashes included
_QUOTED_PATH = re.compile(r"""(["'<])((?:[A-Za-z]:[\\/]|\\\\|/|~/)[^"'<>\r\n]*?)(["'>])""")
# (a drive is followed by its separator: "the job's: Slurm's --mem" quotes no path between its apostrophes)
# a quoted relative path to a file (a model list's 'SDXL\\\\my_model.safetensors'): the folders are the user's own
_QUOTED_RELATIVE = re.compile(r"""(["'])([^"'<>\r\n\s:][^"'<>\r\n:]*?[\\/][^"'<>\r\n]*?\.[A-Za-z0-9]{1,12})(["'])""")
_POSIX_PATH = re.compile(
    r"(?<![\w.:/~])(?:~/|/)(?:[^\s\"'<>/]+/)+(" + _FILE + r")?"  # /a/b/file.ext, ~/x/
    r"|(?<![\w./])/(?:home|Users|root|mnt|media|data|opt|srv|tmp|var)\b[^\s\"'<>]*"  # /home/name (after a colon too:
    # BitBake's "virtual:native:/home/name/poky/...")
)
_SHELL_PROMPT = re.compile(r"(?<![\w.-])[\w.-]+@[\w.-]+:(?:~|/)[^\s$#]*(?=[$#])")
"""A shell's prompt: the user, the machine and the folder (``root@488a72695c82:/home/Upscale-A-Video#``)."""
_FILE_URL = re.compile(r"(?:file|phar|jar):/{1,3}\S+")  # (one slash too: ggml-sycl's "Exception caught at
# file:/home/..."; PHP's archive: "... in phar:///usr/local/bin/composer/src/Composer/DependencyResolver/Solver.php on
# line 223"; the JVM's: "... for file jar:///Users/<name>/.../OfflineSymbolTable.zip!/...")
_HAS_EXTENSION = re.compile(r"^[^.\s]+(?:\.[^.\s]+)*\.[A-Za-z0-9]{1,12}$")
_QUOTED_FILE = re.compile(r"^[^\\/\s][^\\/]*\.[A-Za-z0-9]{1,12}$")
"""A file name in quotes: its spaces are its own ('Cinematic Model - v1.0.safetensors')."""
_MODEL_KEY = re.compile(r"(_name|_path|_file|filename|directory|folder|dir)\d*$", re.IGNORECASE)
_PROMPT_KEYS = {
    "text",
    "prompt",
    "positive",
    "negative",
    "text_g",
    "text_l",
    "clip_l",
    "t5xxl",
    "system_prompt",
    "user_prompt",
    "caption",
    "string",
    "value",
    "text_a",
    "text_b",
    "speak_and_recognation",
}
_PROMPT_CLASS = re.compile(r"TextEncode|Prompt|Caption|String|Text(?!ure)|Note", re.IGNORECASE)
_SECRET_KEYS = {"client_id", "clientid", "sid", "api_key", "api_key_comfy_org", "auth_token", "auth_token_comfy_org"}


@functools.cache
def _who_pattern() -> re.Pattern[str] | None:
    """The user's names as one pattern, found once: a process's user does not change while it runs, and finding them
    (the password database, the home folder) cost more than all the rest of a log's reading."""
    names = _who()
    return re.compile(r"\b(?:" + "|".join(map(re.escape, names)) + r")\b") if names else None


def _who() -> list[str]:
    names = set()
    try:
        names.add(getpass.getuser())
    except Exception:  # no user name to hide
        pass
    home = os.path.basename(os.path.expanduser("~"))
    if home:
        names.add(home)
    return sorted((n for n in names if len(n) >= 3 and n not in ("root", "user", "admin")), key=len, reverse=True)


def _keep_file_name(match: re.Match[str]) -> str:
    name = match.group(1) or ""
    return name if _HAS_EXTENSION.match(name) else PATH_MARK


def _quoted_file_name(match: re.Match[str]) -> str:
    inner = match.group(2)
    if not re.search(r"[\\/]", inner.lstrip("/~")) and not re.match(r"[A-Za-z]:", inner):
        return match.group(0)  # "/", "'/x'": not a path with folders
    name = re.split(r"[\\/]+", inner)[-1]
    return match.group(1) + (name if _QUOTED_FILE.match(name) else PATH_MARK) + match.group(3)


def _posix_path(match: re.Match[str]) -> str:
    if _SYSTEM_PATH.match(match.group(0)):
        return match.group(0)  # the kernel's, the same on every machine: /dev/shm, /proc/meminfo
    return _keep_file_name(match) if match.lastindex else PATH_MARK


_SYSTEM_PATH = re.compile(r"/dev/shm\b|/proc/(?:meminfo|sys/vm/|pressure/|self/)|/sys/fs/cgroup/")


def scrub_text(text: str) -> str:
    """Remove paths (a file keeps its name) and the user's name from free text."""
    text = _SHELL_PROMPT.sub(PATH_MARK, text)
    text = _FILE_URL.sub(PATH_MARK, text)
    text = _QUOTED_PATH.sub(_quoted_file_name, text)
    text = _QUOTED_RELATIVE.sub(_quoted_file_name, text)
    text = _WINDOWS_PATH.sub(_keep_file_name, text)
    text = _POSIX_PATH.sub(_posix_path, text)
    who = _who_pattern()
    return who.sub("[user]", text) if who else text


def _is_free_text(value: str) -> bool:
    """Words a person wrote (a prompt, a note) rather than a setting; errs on the side of removing."""
    stripped = value.strip()
    return (
        "\n" in stripped or len(stripped) > 64 or len(stripped.split()) >= 3 or (" " in stripped and len(stripped) > 20)
    )


def _looks_like_path(value: str) -> bool:
    return bool(_WINDOWS_PATH.search(value) or _POSIX_PATH.search(value) or "/" in value or "\\" in value)


def _clean_value(key: str, value: str, *, prompt_node: bool) -> str:
    if prompt_node and (key.lower() in _PROMPT_KEYS or _is_free_text(value) or not _MODEL_KEY.search(key)):
        return PROMPT_MARK if value else value
    if _MODEL_KEY.search(key) or _HAS_EXTENSION.match(re.split(r"[\\/]", value)[-1] or "x"):
        if _looks_like_path(value):
            last = re.split(r"[\\/]", value)[-1]
            return last if _HAS_EXTENSION.match(last) else PATH_MARK
    if _is_free_text(value):
        return TEXT_MARK
    if _looks_like_path(value):
        return scrub_text(value) if not value.startswith(("/", "~")) and ":" not in value[:3] else PATH_MARK
    return value


def _clean_any(key: str, value: Any, *, prompt_node: bool) -> Any:
    if (
        isinstance(value, list)
        and len(value) == 2
        and isinstance(value[0], str | int)
        and isinstance(value[1], int)
        and not isinstance(value[1], bool)
    ):
        return value  # a link ["4", 1] to another node's output
    if isinstance(value, str):
        return _clean_value(key, value, prompt_node=prompt_node)
    if isinstance(value, list):
        return [_clean_any(key, v, prompt_node=prompt_node) for v in value]
    if isinstance(value, dict):
        return {k: _clean_any(k, v, prompt_node=prompt_node) for k, v in value.items() if k.lower() not in _SECRET_KEYS}
    return value


def _api_prompt_sources(prompt: dict[str, Any]) -> set[str]:
    """Nodes whose strings end up as prompt text: text-encode nodes and every node upstream of
    their text inputs (primitive strings, concatenations, prompt generators)."""
    sources: set[str] = set()
    stack = [nid for nid, n in prompt.items() if isinstance(n, dict) and _PROMPT_CLASS.search(str(n.get("class_type")))]
    while stack:
        nid = stack.pop()
        if nid in sources or not isinstance(prompt.get(nid), dict):
            continue
        sources.add(nid)
        for key, value in (prompt[nid].get("inputs") or {}).items():
            if isinstance(value, list) and len(value) == 2 and isinstance(value[1], int) and not _MODEL_KEY.search(key):
                source = prompt.get(str(value[0]))
                if isinstance(source, dict) and not str(source.get("class_type", "")).endswith(
                    ("Loader", "LoaderSimple")
                ):
                    stack.append(str(value[0]))
    return sources


def sanitize_prompt(prompt: dict[str, Any] | None) -> dict[str, Any] | None:
    """An API-format prompt without prompt text, paths or secrets; links and numbers kept."""
    if not isinstance(prompt, dict):
        return prompt
    sources = _api_prompt_sources(prompt)
    out: dict[str, Any] = {}
    for nid, node in prompt.items():
        if not isinstance(node, dict):
            continue
        clean = {
            "class_type": node.get("class_type"),
            "inputs": {k: _clean_any(k, v, prompt_node=nid in sources) for k, v in (node.get("inputs") or {}).items()},
        }
        title = (node.get("_meta") or {}).get("title")
        if isinstance(title, str):
            clean["_meta"] = {"title": TEXT_MARK if nid in sources and _is_free_text(title) else scrub_text(title)}
        out[nid] = clean
    return out


def sanitize_workflow(workflow: dict[str, Any]) -> dict[str, Any]:
    """A UI-format workflow (what the ComfyUI frontend saves) without prompt text or paths."""

    def node_list(graph: dict[str, Any]) -> list[dict[str, Any]]:
        return [n for n in graph.get("nodes") or [] if isinstance(n, dict)]

    def prompt_nodes(graph: dict[str, Any]) -> set[Any]:
        nodes = {n.get("id"): n for n in node_list(graph)}
        links = {}
        for link in graph.get("links") or []:
            if isinstance(link, list) and len(link) >= 5:
                links[link[0]] = link[1]
            elif isinstance(link, dict):
                links[link.get("id")] = link.get("origin_id")
        marked = {nid for nid, n in nodes.items() if _PROMPT_CLASS.search(str(n.get("type")))}
        stack = list(marked)
        while stack:
            node = nodes.get(stack.pop())
            for inp in (node or {}).get("inputs") or []:
                origin = links.get(inp.get("link")) if isinstance(inp, dict) else None
                if (
                    origin in nodes
                    and origin not in marked
                    and not str(nodes[origin].get("type", "")).endswith("Loader")
                ):
                    if str(inp.get("type", "")).upper() in ("STRING", "*", "") or _PROMPT_CLASS.search(
                        str(nodes[origin].get("type"))
                    ):
                        marked.add(origin)
                        stack.append(origin)
        return marked

    def clean_graph(graph: dict[str, Any]) -> dict[str, Any]:
        marked = prompt_nodes(graph)
        out = {}
        for key, value in graph.items():
            if key == "nodes":
                out[key] = [clean_node(n, n.get("id") in marked) for n in node_list(graph)]
            elif key == "definitions" and isinstance(value, dict):
                out[key] = {
                    k: [clean_graph(s) for s in v]
                    if k == "subgraphs" and isinstance(v, list)  # type: ignore[assignment]
                    else scrub_all(v)
                    for k, v in value.items()
                }
            elif key.lower() in _SECRET_KEYS:
                continue
            else:
                out[key] = scrub_all(value)
        return out

    def clean_node(node: dict[str, Any], is_prompt: bool) -> dict[str, Any]:
        clean = {}
        for key, value in node.items():
            if key == "widgets_values":
                clean[key] = _clean_widgets(value, is_prompt)
            elif key == "title" and isinstance(value, str):
                clean[key] = TEXT_MARK if is_prompt and _is_free_text(value) else scrub_text(value)
            else:
                clean[key] = scrub_all(value)
        return clean

    return clean_graph(workflow)


def _clean_widgets(values: Any, is_prompt: bool) -> Any:
    if isinstance(values, dict):  # some nodes save named widget values
        return {k: _clean_any(k, v, prompt_node=is_prompt) for k, v in values.items()}
    if isinstance(values, list):
        return [_clean_any("value" if is_prompt else "", v, prompt_node=is_prompt) for v in values]
    return values


def scrub_all(value: Any) -> Any:
    """Paths and user names out of every string, secrets out of every object, structure kept."""
    if isinstance(value, str):
        return scrub_text(value)
    if isinstance(value, list):
        return [scrub_all(v) for v in value]
    if isinstance(value, dict):
        return {k: scrub_all(v) for k, v in value.items() if k.lower() not in _SECRET_KEYS}
    return value


def sanitize(value: Any) -> Any:
    """Any JSON: a prompt or workflow is recognised and cleaned as such, other strings scrubbed."""
    if isinstance(value, dict) and isinstance(value.get("nodes"), list):
        return sanitize_workflow(value)
    if isinstance(value, dict) and value and all(isinstance(n, dict) and "class_type" in n for n in value.values()):
        return sanitize_prompt(value)
    return scrub_all(value)
