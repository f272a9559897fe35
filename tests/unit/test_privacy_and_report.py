"""The shareable report: complete, and free of prompts, paths and ids — checked on every real
workflow template of ComfyUI 0.3.64 (comfyui-workflow-templates 0.1.95) and the recorded runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import FIXTURES, load_json

from memprobe import privacy
from memprobe.cli import main
from memprobe.output.report import build_report, report
from memprobe.privacy import PROMPT_MARK, sanitize, sanitize_prompt, sanitize_workflow, scrub_text

try:
    import comfyui_workflow_templates

    TEMPLATES = sorted(
        p
        for p in (Path(comfyui_workflow_templates.__file__).parent / "templates").glob("*.json")
        if '"nodes"' in p.read_text(encoding="utf-8")[:100_000]
    )  # workflows, not the index files
except ImportError:  # pragma: no cover - the test extra installs it
    TEMPLATES = []


def strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from strings(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from strings(v)


def all_nodes(graph):
    yield from graph.get("nodes") or []
    for sub in (graph.get("definitions") or {}).get("subgraphs") or []:
        yield from all_nodes(sub)


def secrets_of(workflow) -> set[str]:
    """What must not survive: every widget string a person wrote (three words or more, or a line
    break), and every absolute path anywhere in the file."""
    found = set()
    for node in all_nodes(workflow):
        for s in strings(node.get("widgets_values")):
            if len(s.split()) >= 3 or "\n" in s.strip():
                found.add(s)
    for s in strings(workflow):
        if scrub_text(s) != s and ("/" in s or "\\" in s):
            found.add(s)
    return found


def test_the_template_package_is_there():
    assert len(TEMPLATES) >= 150


@pytest.mark.parametrize("path", TEMPLATES, ids=[p.stem for p in TEMPLATES])
def test_no_prompt_text_or_path_of_a_real_template_survives(path):
    workflow = json.loads(path.read_text(encoding="utf-8"))
    clean = json.dumps(sanitize_workflow(workflow), ensure_ascii=False)
    leaks = [s for s in secrets_of(workflow) if json.dumps(s, ensure_ascii=False)[1:-1] in clean]
    assert leaks == []
    # the structure stays usable: same nodes, links and types
    assert [n.get("type") for n in all_nodes(json.loads(clean))] == [n.get("type") for n in all_nodes(workflow)]
    assert json.loads(clean).get("links") == workflow.get("links")


def test_text_encode_prompts_and_primitive_strings_feeding_them_are_marked():
    prompt = {
        "1": {"class_type": "PrimitiveStringMultiline", "inputs": {"value": "portrait"}},
        "2": {"class_type": "CLIPTextEncode", "inputs": {"text": ["1", 0], "clip": ["3", 1]}},
        "3": {
            "class_type": "CheckpointLoaderSimple",
            "inputs": {"ckpt_name": "D:\\models\\private\\dreamshaper_8.safetensors"},
        },
        "4": {
            "class_type": "SaveImage",
            "inputs": {"filename_prefix": "/home/alice/out/portrait"},
            "_meta": {"title": "C:\\Users\\alice\\x"},
        },
    }
    clean = sanitize_prompt(prompt)
    assert clean["1"]["inputs"]["value"] == PROMPT_MARK  # one word, but it is the prompt
    assert clean["2"]["inputs"] == {"text": ["1", 0], "clip": ["3", 1]}  # links kept
    assert clean["3"]["inputs"]["ckpt_name"] == "dreamshaper_8.safetensors"
    assert "alice" not in json.dumps(clean)
    assert sanitize({"x": {"client_id": "abc", "note": "/home/alice/secret.txt"}}) == {"x": {"note": "secret.txt"}}


def test_the_name_of_the_user_running_it_leaves_free_text(monkeypatch):
    # found once per process (the password database cost more than the rest of a log's reading), then held
    monkeypatch.setattr(privacy.getpass, "getuser", lambda: "margarethe")
    monkeypatch.setattr(privacy.os.path, "expanduser", lambda path: "/srv/homes/mgreth")
    privacy._who_pattern.cache_clear()
    try:
        assert scrub_text("margarethe's run failed; mgreth's too; margaretheX stays") == (
            "[user]'s run failed; [user]'s too; margaretheX stays"
        )
        assert privacy.scrub_all({"note": ["ran by margarethe"]}) == {"note": ["ran by [user]"]}
    finally:
        privacy._who_pattern.cache_clear()  # (the next test's user is this machine's again)


def test_free_text_is_scrubbed_of_paths_and_the_user_name():
    assert scrub_text(r'File "C:\Users\bob\ComfyUI\nodes.py", line 3') == 'File "nodes.py", line 3'
    assert (
        scrub_text("unable to mmap 5 bytes from file </root/ComfyUI/models/x.safetensors>")
        == "unable to mmap 5 bytes from file <x.safetensors>"
    )
    assert scrub_text("--output-directory /mnt/data/out --lowvram") == "--output-directory [path] --lowvram"
    assert (
        scrub_text("1/2 steps, cfg 7/10, see https://docs.comfy.org/a/b")
        == "1/2 steps, cfg 7/10, see https://docs.comfy.org/a/b"
    )
    # the kernel's own paths are the same on every machine and are what advice names; a device's name may be a user's
    assert scrub_text("exceeds memory available in /dev/shm, see /proc/meminfo") == (
        "exceeds memory available in /dev/shm, see /proc/meminfo"
    )
    assert scrub_text("mounted /dev/mapper/bob--vg-root") == "mounted [path]"
    # apostrophes are no quotes around a drive: "job's: Slurm's" is words, 'S:\out' a path
    assert scrub_text("the job's: Slurm's --mem was the limit") == "the job's: Slurm's --mem was the limit"
    assert scrub_text(r"wrote 'S:\out\img 1.png' then") == "wrote 'img 1.png' then"
    # a file URL with one slash (ggml's SYCL backend: "Exception caught at file:/home/runner/...ggml-sycl.cpp, line:...")
    assert scrub_text("Exception caught at file:/home/runner/_work/ggml-sycl.cpp, line:14714") == (
        "Exception caught at [path] line:14714"
    )
    # a path after a colon with no slashes of a URL (BitBake's task name: "virtual:native:/home/<user>/poky/...")
    assert scrub_text("ERROR: Task (virtual:native:/home/bob/poky/libdnf.bb:do_compile) failed") == (
        "ERROR: Task (virtual:native:[path] failed"
    )
    # ... and PHP's archive (Composer's own code: "Allowed memory size ... exhausted ... in phar:///usr/local/bin/...")
    assert scrub_text("exhausted in phar:///root/site/vendor/phpstan/phpstan/phpstan.phar/src/Node.php on line 2") == (
        "exhausted in [path] on line 2"
    )
    # ... and the JVM's jar: URL (an IDE's index, cloud-code/IlluminatedCloud's: "for file jar:///Users/<name>/...")
    assert scrub_text("Failed to build index 'X' for file jar:///Users/alex/dev2/Offline.zip!/A.cls") == (
        "Failed to build index 'X' for file [path]"
    )
    # a shell's prompt pasted after the error: its user, its machine and its folder (Upscale-A-Video's container)
    assert scrub_text("(.venv) root@488a72695c82:/home/Upscale-A-Video# ") == "(.venv) [path]# "
    assert scrub_text("bob@desk:~/ComfyUI$ python main.py") == "[path]$ python main.py"
    assert scrub_text("git@github.com:owner/repo.git") == "git@github.com:owner/repo.git"  # no prompt: a remote


RUNS = sorted((FIXTURES / "runs").glob("*.json"))


@pytest.mark.parametrize("path", RUNS, ids=[p.stem for p in RUNS])
def test_reports_of_the_recorded_runs_carry_no_prompt_or_path(path):
    doc = json.loads(path.read_text())
    secrets = {
        n["inputs"]["text"]
        for n in (doc.get("prompt") or {}).values()
        if n["class_type"] == "CLIPTextEncode" and isinstance(n["inputs"].get("text"), str)
    }
    secrets |= {s for s in strings(doc) if ("/root/" in s or "/home/" in s)}
    for fmt in ("md", "json"):
        text = report(doc, fmt)
        assert not [s for s in secrets if s in text], fmt
        assert "/root/" not in text and "comfy-eval" not in text


def test_the_report_of_the_error_run_names_its_failing_node_and_the_smallest_workflow():
    doc = load_json("runs/error_runtime.json")
    built = build_report(doc)
    assert built["error"]["node_id"] == "11" and built["error"]["class_type"] == "LatentBlend"
    assert built["error"]["exception_type"] == "RuntimeError" and built["error"]["kind"] == "other"
    assert set(built["smallest_failing_workflow"]) == {"3", "4", "5", "6", "7", "10", "11"}  # no decode, no save
    assert built["versions"]["comfyui"] == "0.3.64" and built["system"]["install"] == "manual"
    md = report(doc, "md")
    for heading in ("## Error", "## System", "## Peaks by stage", "## Suggestions", "## Smallest failing workflow"):
        assert heading in md
    assert "LatentBlend" in md and "size of tensor a (4)" in md


def test_the_report_of_a_decode_oom_lists_the_suggestion_and_peaks_by_stage():
    built = build_report(load_json("runs/decode_oom_cpu.json"))
    assert built["suggestions"][0]["id"] == "tiled-decode"
    assert built["memory"]["by_stage"]["vae-decode"]["failed"] is True
    assert built["memory"]["metric"] == "ram_used_bytes" and built["memory"]["limit_bytes"] > 0
    with pytest.raises(ValueError, match="md or json"):
        report(load_json("runs/txt2img.json"), "html")


def test_cli_report_and_compare_on_exported_runs(capsys):
    assert main(["report", str(FIXTURES / "runs" / "error_runtime.json")]) == 0
    assert "# Memory Probe report" in capsys.readouterr().out
    assert main(["report", "--format", "json", str(FIXTURES / "runs" / "decode_oom_cpu.json")]) == 0
    assert json.loads(capsys.readouterr().out)["error"]["kind"] == "system-ram"
    assert (
        main(["compare", str(FIXTURES / "runs" / "txt2img.json"), str(FIXTURES / "runs" / "txt2img_tiled.json")]) == 0
    )
    assert "decode node" in capsys.readouterr().out


def test_cli_rejects_what_is_not_an_exported_run(tmp_path, capsys):
    (tmp_path / "bad.json").write_text('{"hello": 1}')
    (tmp_path / "broken.json").write_text("{nope")
    for name in ("bad.json", "broken.json", "missing.json"):
        with pytest.raises(SystemExit) as info:
            main(["report", str(tmp_path / name)])
        assert "memprobe:" in str(info.value)


def test_the_report_carries_the_per_stage_model_picture():
    built = build_report(load_json("runs/txt2img_models.json"))
    models = built["models"]
    assert list(models["by_stage"]) == ["load", "other", "text-encode", "sampling", "vae-decode", "output"]
    (change,) = models["by_stage"]["sampling"]["changes"]
    assert change == {
        "node_id": "3",
        "change": "loaded",
        "name": "BaseModel (tiny_sd15.safetensors)",
        "text": "loaded BaseModel (tiny_sd15.safetensors): 169.0 MiB in RAM (cpu)",
    }
    assert sorted(m["class"] for m in models["at_end"]) == ["AutoencoderKL", "BaseModel", "SD1ClipModel"]
    assert all("key" not in m and "loaded_by" not in m for m in models["at_end"])
    assert models["partial_loads"] == [] and len(built["model_log"]) == 3
    md = report(load_json("runs/txt2img_models.json"), "md")
    assert "## Models by stage" in md
    assert "| sampling | " in md and "node 3: loaded BaseModel (tiny_sd15.safetensors): 169.0 MiB in RAM (cpu)" in md
    assert "loaded completely 9.5367431640625e+25 168.95997619628906 True" in md


def test_a_report_of_a_run_without_model_readings_says_nothing_about_models():
    built = build_report(load_json("runs/txt2img.json"))
    assert built["models"] is None and "## Models by stage" not in report(load_json("runs/txt2img.json"), "md")
