"""``memprobe doctor`` on Windows: through the ``memprobe.exe`` entry point pip makes, and over
pagefile settings written into the (Wine) registry as Windows writes them. Under Wine the
registry holds Wine's fixed default (27 MiB initial, 77 MiB maximum), which the doctor must flag."""

from __future__ import annotations

import json
import os
import re

import pytest

from memprobe.cli import main
from memprobe.judging.doctor import diagnose
from memprobe.output.text import doctor_text as render_text
from memprobe.sensing.machine import gather_machine

GIB = 1024**3


def _at(doc, path: str):
    """The value at ``memory.swap_used_bytes`` / ``swap.areas[0].rotational`` in the document."""
    node = doc
    for name, index in re.findall(r"(\w+)(?:\[(\d+)\])?", path):
        node = node[name]
        if index:
            node = node[int(index)]
    return node


def _check_document(doc):
    assert doc["platform"]["system"] == "Windows"
    memory = doc["memory"]
    assert isinstance(memory["ram_total_bytes"], int) and memory["ram_total_bytes"] > GIB
    assert isinstance(memory["commit_limit_bytes"], int) and 0 < memory["commit_bytes"] <= memory["commit_limit_bytes"]
    assert memory["overcommit_mode"] is None
    for entry in doc["unreadable"]:  # each one is null in the document and says why
        assert set(entry) == {"value", "label", "reason"} and entry["reason"]
        assert _at(doc, entry["value"]) in (None, []), entry  # [] for swap.areas
    for finding in doc["findings"]:
        assert set(finding) == {"id", "severity", "title", "evidence", "action"}


def test_doctor_json_through_the_memprobe_exe_entry_point(memprobe_exe, run, tmp_path, wine):
    result = run([memprobe_exe, "doctor", "--json", "--path", f"models={tmp_path}"])
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    _check_document(doc)
    models = next(d for d in doc["disks"] if d["role"] == "models")
    assert models["path"] == str(tmp_path) and models["free_bytes"] > 0
    if wine:
        ids = {f["id"]: f["severity"] for f in doc["findings"]}
        assert ids["pagefile-too-small"] == "critical" and "ok" not in ids
        assert {u["value"] for u in doc["unreadable"]} == {
            "memory.commit_peak_bytes",
            "memory.swap_used_bytes",
            "swap.areas[0].rotational",
        }
        assert doc["suggested_pagefile"]["recommended_bytes"] >= 32 * GIB


def test_doctor_text_shows_ram_commit_and_the_pagefile_and_flags_wines_77_mib(memprobe_exe, run, wine):
    result = run([memprobe_exe, "doctor"])
    assert result.returncode == 0, result.stderr
    text = result.stdout
    size = r"\d+\.\d [KMG]iB"
    assert re.search(rf"^RAM      {size} / {size} \(\d+%\) in use$", text, re.M), text
    assert re.search(rf"^Commit   {size} / {size} \(\d+%\)$", text, re.M), text
    assert "\nPagefile " in text and "\nFindings\n" in text
    if wine:
        assert "C:\\pagefile.sys (pagefile): 27.0 MiB initial, 77.0 MiB maximum" in text
        assert "\n!! The pagefile (77.0 MiB at most) is as good as none\n" in text
        assert "\nCould not read\n" in text and "[WinError 50] the seek-penalty query" in text
        assert "No memory set-up problem found" not in text


def test_doctor_paths_with_drive_letters_forward_slashes_and_a_missing_drive(capsys, tmp_path, free_drive, wine):
    forward = str(tmp_path).replace("\\", "/")
    missing = f"{free_drive}\\ComfyUI\\models"
    here = os.getcwd()  # under Wine: Z:\ and the Linux path of the checkout
    assert (
        main(
            [
                "doctor",
                "--json",
                "--path",
                "system=C:\\",
                "--path",
                f"out={forward}",
                "--path",
                f"repo={here}",
                "--path",
                f"models={missing}",
            ]
        )
        == 0
    )
    doc = json.loads(capsys.readouterr().out)
    disks = {d["role"]: d for d in doc["disks"]}
    assert disks["system"]["free_bytes"] > 0 and disks["out"]["free_bytes"] > 0 and disks["repo"]["free_bytes"] > 0
    if wine:
        assert disks["repo"]["path"].startswith("Z:\\")
    assert disks["models"]["free_bytes"] is None
    entry = next(u for u in doc["unreadable"] if u["label"] == f"free space of {missing}")
    assert entry["reason"].startswith("[WinError ")
    _check_document(doc)


@pytest.mark.parametrize(
    ("entries", "expected"),
    [
        ([], {"pagefile-none": "critical"}),
        (["C:\\pagefile.sys 0 0"], {"pagefile-system-managed": "warning"}),
        (["?:\\pagefile.sys"], {"pagefile-system-managed": "warning"}),
        (["C:\\pagefile.sys 4096 8192"], {"pagefile-too-small": "warning"}),
        (["C:\\pagefile.sys 65536 65536"], {}),
    ],
    ids=["none", "system-managed", "all-drives", "4-8-gb", "64-gb-fixed"],
)
def test_the_verdict_follows_the_registry_value(paging_files, entries, expected):
    paging_files(entries)
    doc = gather_machine(allow_cuda_init=False)
    findings = {f.id: f.severity for f in diagnose(doc)}
    pagefile = {
        k: v
        for k, v in findings.items()
        if k in ("pagefile-none", "pagefile-system-managed", "pagefile-too-small", "pagefile-not-fixed")
    }
    assert pagefile == expected
    assert [a["path"] for a in doc["swap"]["areas"]] == [e.split(" ")[0] for e in entries]


def test_a_pagefile_on_a_drive_that_is_not_there(paging_files, free_drive):
    paging_files([f"{free_drive}\\pagefile.sys 32768 32768"])
    doc = gather_machine(allow_cuda_init=False)
    area = doc["swap"]["areas"][0]
    assert area["drive_type"] == "no-root" and area["rotational"] is None and area["volume"]["free_bytes"] is None
    values = {u["value"]: u["reason"] for u in doc["unreadable"]}
    assert values["swap.areas[0].volume"].startswith("[WinError ")
    assert values["swap.areas[0].rotational"].startswith("[WinError 2] CreateFileW")
    assert "free space where the pagefile/swap lives" in next(f.action for f in diagnose(doc) if f.id == "not-checked")


def test_unreadable_pagefile_settings_still_give_ram_and_commit(paging_files):
    paging_files(None)
    doc = gather_machine(allow_cuda_init=False)
    _check_document({**doc, "findings": []})
    assert doc["swap"]["areas"] == [] and "[WinError 2]" in doc["swap"]["error"]
    assert {
        "value": "swap.areas",
        "label": "the pagefile settings (registry PagingFiles)",
        "reason": doc["swap"]["error"],
    } in doc["unreadable"]
    findings = diagnose(doc)
    assert "pagefile-unknown" in [f.id for f in findings]
    assert "RAM      n/a" not in render_text(doc, findings)
