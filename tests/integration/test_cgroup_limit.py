"""A container's memory limit, for real: ComfyUI runs inside a memory cgroup with a limit, a
workflow that needs more is killed by the kernel's OOM killer, and the next start records the run
as ended abruptly *by the cgroup limit*, with the advice that fits (raise the container's limit,
not add swap)."""

from __future__ import annotations

GIB = 1024**3
LIMIT = 3 * GIB


def test_a_workflow_killed_by_the_cgroup_limit_is_recorded_with_its_cause(cgroup_kill):
    # (the kill is the session's one, conftest.py's cgroup_kill: the panel's headline test reads it too)
    server, cgroup = cgroup_kill.server, cgroup_kill.cgroup
    # GIVEN ComfyUI started inside a memory cgroup limited to 3 GiB
    assert cgroup_kill.limit == LIMIT and cgroup_kill.before["pid_in_cgroup"]
    live, system = cgroup_kill.before["live"], cgroup_kill.before["system"]
    limits = live["memory"]["system"]
    assert (limits["limit_name"], limits["limit_enforced"], limits["limit_bytes"]) == (
        "container limit (cgroup)",
        True,
        LIMIT,
    )
    assert live["memory"]["limit_name"] == "container limit (cgroup)"  # on the CPU, the compute memory too
    assert 0 < limits["used_bytes"] < LIMIT
    assert system["cgroup"]["limit_bytes"] == LIMIT and system["cgroup"]["oom_kills"] == 0
    assert system["memory"]["limit_name"] == "container limit (cgroup)"
    assert "cgroup-limit" in [f["id"] for f in system["findings"]]

    # WHEN a 2048x2048 VAE decode needs more than the limit
    prompt_id = cgroup_kill.prompt_id
    # THEN the kernel killed ComfyUI (SIGKILL), and counted it in the cgroup
    assert cgroup_kill.returncode == -9, server.log_tail()
    kills = _oom_kills(cgroup)
    assert kills >= 1

    # WHEN ComfyUI starts again (same user folder, same cgroup)
    server.stop()
    server.process = None
    server.start()
    run = server.memprobe_run(prompt_id)

    # THEN the run ended abruptly at the decode, caused by the cgroup limit, with the counters as evidence
    assert run["status"] == "ended_abruptly"
    failure = run["failure"]
    assert (failure["node_id"], failure["class_type"], failure["kind"]) == ("8", "VAEDecode", "cgroup-limit")
    assert f"oom_kill 0 -> {kills}" in failure["evidence"] and "3.0 GiB" in failure["evidence"]
    assert run["memory"]["system"]["limit_name"] == "container limit (cgroup)"
    # AND the advice: the decode in tiles (it is where memory ran out), then the container's limit;
    # never the host's swap
    advice = {s["id"]: s for s in run["suggestions"]}
    assert [s["id"] for s in run["suggestions"]][:2] == ["tiled-decode", "container-limit"]
    assert advice["tiled-decode"]["severity"] == advice["container-limit"]["severity"] == "critical"
    assert "docker run --memory" in advice["container-limit"]["try"] and "oom_kill" in advice["container-limit"]["why"]
    assert "pagefile" not in advice and "find-who-ended-it" not in advice
    assert server.get("/memprobe/system")["cgroup"]["oom_kills"] == kills


def _oom_kills(cgroup) -> int:
    text = cgroup.read("memory.oom_control" if cgroup.version == 1 else "memory.events")
    return int(dict(line.split() for line in text.splitlines())["oom_kill"])
