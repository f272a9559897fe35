"""Two ComfyUIs started from one install (one per GPU, say) share its user folder and so Memory
Probe's ledger: both write at once, neither loses a run nor blocks a prompt on the other's lock, and
each tells its own runs from the other's — and lists both when asked."""

from __future__ import annotations

import threading

from comfy_server import short_prompt

PROMPTS = 8


def test_two_servers_one_install_share_the_ledger_and_lose_nothing(make_server, tmp_path):
    shared = tmp_path / "user"  # the install's user folder, as both servers of one ComfyUI folder see it
    shared.mkdir()
    a = make_server("server-a", user_dir=shared)
    b = make_server("server-b", user_dir=shared)
    assert a.ledger_path == b.ledger_path
    results: dict[str, list] = {"a": [], "b": []}

    def queue_all(server, name: str, base: int) -> None:
        for i in range(PROMPTS):
            prompt_id, history = server.run(short_prompt(base + i, name), timeout_s=300)
            results[name].append((prompt_id, history["status"]["status_str"]))

    threads = [threading.Thread(target=queue_all, args=(s, n, base)) for s, n, base in ((a, "a", 100), (b, "b", 200))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(600)
    # THEN every prompt ran, and every run is recorded as a success, in the one ledger
    assert all(status == "success" for runs in results.values() for _, status in runs), results
    ids = {name: {pid for pid, _ in runs} for name, runs in results.items()}
    for server in (a, b):
        for name in ("a", "b"):
            for prompt_id in ids[name]:
                assert server.memprobe_run(prompt_id)["status"] == "success"
    # AND each server lists its own runs, and both when asked
    a_id = a.get("/memprobe/runs?server=this&limit=100")["server"]
    b_id = b.get("/memprobe/runs?server=this&limit=100")["server"]
    assert a_id != b_id and a_id.endswith(f":{a.port}") and b_id.endswith(f":{b.port}")
    own_a = {r["id"] for r in a.get("/memprobe/runs?server=this&limit=100")["runs"]}
    own_b = {r["id"] for r in b.get("/memprobe/runs?server=this&limit=100")["runs"]}
    assert own_a == ids["a"] and own_b == ids["b"]
    every = a.get("/memprobe/runs?server=all&limit=100")
    assert {r["id"] for r in every["runs"]} == ids["a"] | ids["b"] and set(every["servers"]) == {a_id, b_id}
    # AND no lock error reached either log
    for server in (a, b):
        log = server.log_text()
        assert "database is locked" not in log and "runs are not being saved" not in log, server.log_tail()
