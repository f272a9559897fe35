"""The panel's headline for real failures, in the real frontends (1.27.10 as ComfyUI 0.3.64 serves
it, 1.58.1 through ``--front-end-root``) against a real ComfyUI: a run the container's memory limit
killed is headlined as the container limit, and a run whose SaveImage hit a full disk as the full
disk. The words are the server's verdict; the browser only draws them."""

from __future__ import annotations

import json

import pytest
from comfy_server import ComfyServer, load_workflow
from frontend_server import (
    FRONTENDS,
    SETTINGS,
    Unavailable,
    chromium_missing,
    frontend_static,
    launch_chromium,
    unavailable,
)
from kernel_setups import mount_tmpfs

MIB = 1024**2
SMALL = {"5.width": 256, "5.height": 256}


@pytest.fixture(scope="module")
def chromium():
    if reason := chromium_missing():
        unavailable(reason)
    with launch_chromium() as browser:
        yield browser


def restart_with_frontend(server: ComfyServer, version: str) -> None:
    """Start ``server`` again (same folders, same ledger) serving frontend ``version``."""
    try:
        static = frontend_static(version)
    except Unavailable as exc:
        unavailable(str(exc))
    server.stop()
    server.process = None
    server.args = [a for a in server.args if a != "--front-end-root" and not a.endswith("/static")]
    server.args += ["--front-end-root", str(static)]
    settings = (server.user_dir or server.base_dir / "user") / "default" / "comfy.settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps(SETTINGS))
    server.start()


def headline_of(chromium, server: ComfyServer, version: str, run_id: str) -> dict:
    """Open the real frontend, show ``run_id`` in the Memory panel, and read its headline."""
    page = chromium.new_page(viewport={"width": 1600, "height": 1000})
    try:
        page.goto(server.url)
        page.wait_for_function("window.app && window.app.extensionManager && window.__memprobe", timeout=120_000)
        assert page.evaluate("() => window.__COMFYUI_FRONTEND_VERSION__") == version
        page.evaluate(
            "id => window.__memprobe.store.refreshRuns().then(() => window.__memprobe.store.select(id))", run_id
        )
        button = page.locator(".memprobe-tab-button, [data-testid='memprobe-tab-button']").first
        button.click()
        page.wait_for_selector("[data-testid=memprobe-headline] .mp-hl-title")
        head = page.locator("[data-testid=memprobe-headline]")
        return {
            "title": head.locator(".mp-hl-title").inner_text(),
            "class": head.get_attribute("class") or "",
            "text": head.inner_text(),
        }
    finally:
        page.close()


def test_a_run_the_containers_limit_killed_is_headlined_as_the_container_limit(cgroup_kill, chromium):
    # GIVEN ComfyUI killed by the kernel's OOM killer in its 3 GiB cgroup during a big decode (the session's one kill,
    # conftest.py's cgroup_kill, which test_cgroup_limit.py reads too)
    server, prompt_id = cgroup_kill.server, cgroup_kill.prompt_id
    assert cgroup_kill.returncode == -9, server.log_tail()
    for version in FRONTENDS:
        # WHEN it starts again and the real frontend shows that run
        restart_with_frontend(server, version)
        head = headline_of(chromium, server, version, prompt_id)
        # THEN the headline names the memory that ran out, where, as the server judged it
        assert head["title"] == "Container memory limit reached at VAE Decode (vae-decode)", head
        assert "mp-tone-failed" in head["class"] and "OOM killer" in head["text"]
        assert server.memprobe_run(prompt_id)["verdict"]["title"] == head["title"]


def test_a_run_that_failed_on_a_full_disk_is_headlined_as_the_full_disk(make_server, tmp_path, chromium):
    volume = mount_tmpfs(tmp_path / "output", 2 * MIB)
    server = make_server("headline-disk", start=False, args=["--output-directory", str(volume.path)])
    try:
        server.start()
        # GIVEN ComfyUI's output folder on a volume with no space left
        volume.fill()
        # WHEN a txt2img saves its image there
        prompt_id, history = server.run(load_workflow("txt2img", **SMALL, **{"3.seed": 7}))
        assert history["status"]["status_str"] == "error"
        run = server.memprobe_run(prompt_id)
        assert (run["failure"]["kind"], run["failure"]["class_type"]) == ("disk", "SaveImage")
        for version in FRONTENDS:
            restart_with_frontend(server, version)
            head = headline_of(chromium, server, version, prompt_id)
            # THEN the headline says the disk was full, at the node that wrote
            assert head["title"] == "Disk full at Save Image (output)", head
            assert "mp-tone-failed" in head["class"] and "No space left on device" in head["text"]
    finally:
        server.stop()
        volume.unmount()
