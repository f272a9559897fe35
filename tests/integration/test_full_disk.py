"""A full disk must not blind the panel: ComfyUI's user folder on a small tmpfs, filled to the
last byte. Workflows still run; ``/memprobe/runs`` answers with the runs kept in memory;
``/memprobe/live`` says runs are not being saved and why (the volume's free space); once space
returns, the kept runs are saved."""

from __future__ import annotations

import time

import pytest
from comfy_server import load_workflow
from kernel_setups import mount_tmpfs

MIB = 1024**2
SMALL = {"5.width": 256, "5.height": 256}


@pytest.fixture
def user_volume(tmp_path):
    volume = mount_tmpfs(tmp_path / "user", 16 * MIB)
    yield volume
    volume.unmount()


@pytest.fixture
def server(make_server, user_volume):
    """ComfyUI with its user folder on the tmpfs, stopped before the tmpfs is unmounted."""
    server = make_server("full-disk", user_dir=user_volume.path)
    yield server
    server.stop()


def test_runs_on_a_full_user_volume_are_kept_served_and_saved_when_space_returns(server, user_volume):
    assert server.ledger_path.is_file()
    saved_id, _ = server.run(load_workflow("txt2img", **SMALL, **{"3.seed": 1}))
    assert server.memprobe_run(saved_id)["status"] == "success"

    # GIVEN the volume holding ComfyUI's user folder is full
    filler = user_volume.fill()
    assert user_volume.free_bytes() == 0
    # WHEN workflows run
    ids = []
    for seed in (2, 3):
        prompt_id, history = server.run(load_workflow("txt2img", **SMALL, **{"3.seed": seed}))
        assert history["status"]["status_str"] == "success"  # the workflow is not affected
        ids.append(prompt_id)

    # THEN the status says runs are not being saved, why, and the volume's free space
    ledger = _wait_for(lambda: server.get("/memprobe/live")["status"]["ledger"], lambda s: not s["saving"])
    assert "runs are not being saved" in ledger["reason"] and "is full (0 B free of 16.0 MiB" in ledger["reason"]
    assert ledger["volume"]["free_bytes"] == 0 and ledger["unsaved_runs"] >= 1
    # AND the runs list answers 200 with the runs kept in memory, the saved one too where it can be read
    status, listed = server.request("GET", "/memprobe/runs")
    assert status == 200, listed
    by_id = {r["id"]: r for r in listed["runs"]}
    assert set(ids) <= set(by_id) and all(by_id[i]["status"] == "success" for i in ids)
    assert any(by_id[i].get("saved") is False for i in ids)
    # AND each run is served whole, with its nodes and suggestions
    for prompt_id in ids:
        run = server.memprobe_run(prompt_id)
        assert run["status"] == "success" and len(run["nodes"]) == 7 and "suggestions" in run
    assert "Traceback" not in server.log_text().split("runs are not being saved")[-1]

    # WHEN space returns, THEN the kept runs are saved within a few seconds
    filler.unlink()
    ledger = _wait_for(lambda: server.get("/memprobe/live")["status"]["ledger"], lambda s: s["saving"], timeout_s=30)
    assert ledger["unsaved_runs"] == 0 and ledger["reason"] is None
    listed = server.get("/memprobe/runs")
    assert {saved_id, *ids} <= {r["id"] for r in listed["runs"] if r.get("saved", True)}
    assert "runs are being saved again" in server.log_text()


def _wait_for(read, done, timeout_s: float = 20):
    deadline = time.monotonic() + timeout_s
    value = read()
    while not done(value):
        if time.monotonic() > deadline:
            raise AssertionError(f"still {value}")
        time.sleep(0.3)
        value = read()
    return value
