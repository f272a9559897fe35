"""The Memory panel's "Explain a log" in the real ComfyUI frontend (1.27.10 and 1.58.1), in headless
Chromium: a pasted log, a chosen file and a dropped file are explained by the real route, and the
result reads like a run's failure and suggestions."""

from __future__ import annotations

from frontend_server import open_panel
from helpers import FIXTURES

DIALOG = "[data-testid=memprobe-explain]"
RESULT = "[data-testid=memprobe-explain-result]"


def ours(errors: list[str]) -> list[str]:
    return [e for e in errors if e.startswith("pageerror") or "memprobe" in e.lower() or "explain" in e.lower()]


def open_dialog(page):
    open_panel(page)
    page.click("[data-action=explain-log]")
    page.wait_for_selector(DIALOG)


def wait_explained(page):
    page.wait_for_function("document.querySelector('[data-testid=memprobe-explain]').dataset.state === 'explained'")


def test_a_pasted_log_is_explained_like_a_run(comfy):
    page, server, version, errors = comfy
    open_dialog(page)
    # GIVEN the real ComfyUI 0.3.64 log of the error_runtime workflow, pasted
    log = (FIXTURES / "comfyui-0.3.64" / "logs" / "error_runtime.log").read_text(encoding="utf-8")
    page.fill("[data-testid=memprobe-explain-text]", log)
    # WHEN explained
    page.click(f"{DIALOG} [data-action=explain]")
    wait_explained(page)
    # THEN the failure is named with its node and stage, as a traced run's would be
    kind = page.locator(f"{RESULT} .mp-explain-kind")
    assert kind.get_attribute("data-kind") == "other"
    assert "LatentBlend, stage other" in kind.inner_text()
    assert "The size of tensor a (4)" in page.locator(f"{RESULT} .mp-explain-message").inner_text()
    assert page.locator(f"{RESULT} [data-suggestion]").count() == 0
    assert "memory readings" in page.locator(f"{RESULT} .mp-explain-unknown").inner_text()
    page.keyboard.press("Escape")
    assert page.locator(DIALOG).count() == 0
    assert not ours(errors), errors


def test_a_chosen_file_and_a_dropped_file(comfy):
    page, server, version, errors = comfy
    open_dialog(page)
    # a log file chosen with the file picker: a VRAM OOM at VAE Decode
    page.set_input_files(
        "[data-testid=memprobe-explain-input]", str(FIXTURES / "logs" / "cuda_vaedecode_control_lora_6gb.log")
    )
    wait_explained(page)
    assert page.locator(f"{RESULT} .mp-explain-kind").get_attribute("data-kind") == "vram"
    first = page.locator(f"{RESULT} [data-suggestion]").first
    assert first.get_attribute("data-suggestion") == "tiled-decode" and "VAE Decode (Tiled)" in first.inner_text()
    assert "cuda_vaedecode_control_lora_6gb.log" in page.locator("[data-testid=memprobe-explain-file]").inner_text()

    # a UTF-16 log (what PowerShell writes) dropped onto the dialog: the server reads its encoding
    data = "\ufeff" + (FIXTURES / "logs" / "commit1455_portable_chinese.log").read_text(encoding="utf-8")
    page.evaluate(
        """([bytes, name]) => {
            const file = new File([new Uint8Array(bytes)], name, {type: "text/plain"});
            const transfer = new DataTransfer();
            transfer.items.add(file);
            const dialog = document.querySelector('[data-testid=memprobe-explain]');
            dialog.dataset.state = "";
            dialog.dispatchEvent(new DragEvent("drop", {dataTransfer: transfer, bubbles: true, cancelable: true}));
        }""",
        [list(data.encode("utf-16-le")), "comfyui.log"],
    )
    wait_explained(page)
    assert page.locator(f"{RESULT} .mp-explain-kind").get_attribute("data-kind") == "commit-limit"
    assert page.locator(f"{RESULT} [data-suggestion]").first.get_attribute("data-suggestion") == "pagefile"
    assert "页面文件太小" in page.locator(f"{RESULT} .mp-explain-message").inner_text()
    assert not ours(errors), errors


def test_an_empty_paste_says_what_to_do(comfy):
    page, server, version, errors = comfy
    open_dialog(page)
    page.fill("[data-testid=memprobe-explain-text]", "   \n  ")
    page.click(f"{DIALOG} [data-action=explain]")
    assert "Paste a log or choose a file first" in page.locator(RESULT).inner_text()
    assert page.locator(f"{DIALOG} [data-action=explain-report]").is_disabled()
    assert not ours(errors), errors


def test_a_single_pasted_line_is_explained(comfy):
    page, server, version, errors = comfy
    open_dialog(page)
    # GIVEN the one line many people paste (Comfy-Org/ComfyUI#8998, tests/fixtures/logs)
    line = (FIXTURES / "logs" / "comfyui-8998_pagefile_oneline.log").read_text(encoding="utf-8").strip()
    assert "\n" not in line
    page.fill("[data-testid=memprobe-explain-text]", line)
    page.click(f"{DIALOG} [data-action=explain]")
    wait_explained(page)
    # THEN it is a failure of the commit limit, headlined in the server's words, with a first step
    kind = page.locator(f"{RESULT} .mp-explain-kind")
    assert kind.get_attribute("data-kind") == "commit-limit"
    assert "Commit limit reached (RAM + pagefile)" in kind.inner_text()
    assert page.locator(f"{RESULT} [data-suggestion]").first.get_attribute("data-suggestion") == "pagefile"
    assert not ours(errors), errors


def test_a_fallback_alone_is_no_failure_in_the_servers_words_with_its_change(comfy):
    page, server, version, errors = comfy
    open_dialog(page)
    # GIVEN ComfyUI's tiled-decode retry alone (komikndr/raylight#48, tests/fixtures/logs): nothing failed
    log = (FIXTURES / "logs" / "fallback_only_wan_vae_tiled.log").read_text(encoding="utf-8")
    page.fill("[data-testid=memprobe-explain-text]", log)
    page.click(f"{DIALOG} [data-action=explain]")
    wait_explained(page)
    # THEN the panel says what the server said (no sentence of its own), and the change that avoids the retry
    kind = page.locator(f"{RESULT} .mp-explain-kind")
    assert kind.get_attribute("data-kind") == "none"
    assert kind.inner_text().startswith("No failure in this log, but memory ran short")
    assert page.locator(f"{RESULT} [data-suggestion]").first.get_attribute("data-suggestion") == "tiled-decode"
    assert not ours(errors), errors
