"""The Prometheus exposition: the limit each OS enforces (from recorded /proc and Windows
readings), names and labels as Prometheus' conventions want them, its own registry, no new
reading per scrape, no private data, and `promtool check metrics` on the document."""

from __future__ import annotations

import os
import shutil
import subprocess

import prometheus_client
import pytest
from helpers import FIXTURES, FakeClock, ScriptedSensors, judged_by, load_json, read_trace, replay_trace
from prometheus_client.openmetrics.parser import text_string_to_metric_families as parse_openmetrics
from prometheus_client.parser import text_string_to_metric_families

from memprobe.output.prometheus import MachineFacts, MetricsExporter, enforced_limit
from memprobe.recording.runstats import RunStats
from memprobe.recording.tracker import Tracker
from memprobe.sensing.snapshot import GpuMemory, metrics_of
from memprobe.sensing.system import linux, windows

GIB = 1024**3
TXT2IMG = load_json("comfyui-0.3.64/api-workflows/txt2img.json")
REQUIRE_PROMTOOL = os.environ.get("MEMPROBE_REQUIRE_PROMETHEUS") == "1"


def linux_reading(meminfo: str, status: str | None, mode: int) -> tuple[MachineFacts, dict[str, int]]:
    fields = linux.system_fields(
        (FIXTURES / "linux" / meminfo).read_text(), (FIXTURES / "linux" / status).read_text() if status else None, mode
    )
    facts = MachineFacts(
        "linux",
        overcommit_mode=mode,
        ram_total_bytes=fields["ram_total_bytes"],
        swap_total_bytes=fields["swap_total_bytes"],
    )
    return facts, metrics_of((), totals=False, **fields)


RTX_3060 = GpuMemory(
    index=0,
    backend="cuda",
    name="NVIDIA GeForce RTX 3060",
    device_used_bytes=int(11.2 * GIB),
    device_total_bytes=12 * GIB,
    torch_reserved_bytes=10 * GIB,
    torch_allocated_bytes=8 * GIB,
    shared_used_bytes=GIB,
)


def windows_fields() -> dict[str, int | None]:
    values = load_json("windows/performance_information_32gb.json")
    perf = windows.PerformanceInformation(**{k: v for k, v in values.items() if not k.startswith("_")})
    return windows.system_fields(
        perf, swap_total_bytes=2 * GIB, swap_used_bytes=GIB, process_rss_bytes=9 * GIB, process_private_bytes=11 * GIB
    )


def windows_reading() -> tuple[MachineFacts, dict[str, int]]:
    fields = windows_fields()
    facts = MachineFacts(
        "win32",
        ram_total_bytes=fields["ram_total_bytes"],
        swap_total_bytes=2 * GIB,
        gpus=((0, "NVIDIA GeForce RTX 3060", 12 * GIB),),
    )
    return facts, metrics_of((RTX_3060,), totals=False, **fields)


# ---------------------------------------------------------------- the limit each OS enforces
def test_linux_heuristic_overcommit_is_judged_by_ram_plus_swap_not_commit():
    # GIVEN the 4 GiB desktop whose Committed_AS exceeds CommitLimit in mode 0 (not enforced there)
    facts, m = linux_reading("meminfo_4g_swap_overcommitted.txt", None, 0)
    assert m["commit_bytes"] > m["commit_limit_bytes"]
    name, used, limit = enforced_limit(facts, m)
    assert name == "ram+swap"
    assert limit == facts.ram_total_bytes + facts.swap_total_bytes
    assert used == m["ram_used_bytes"] + m["swap_used_bytes"] and used < limit


def test_linux_strict_overcommit_and_windows_are_judged_by_commit():
    facts, m = linux_reading("meminfo_4g_swap_overcommitted.txt", None, 2)
    assert enforced_limit(facts, m) == ("commit", m["commit_bytes"], m["commit_limit_bytes"])
    facts, m = windows_reading()
    name, used, limit = enforced_limit(facts, m)
    assert name == "commit" and used / limit > 0.9  # the heavy FLUX run: what the README's alert catches


def test_no_swap_machine_limit_is_its_ram_and_missing_readings_give_none():
    facts, m = linux_reading("meminfo_idle_24g_noswap.txt", "status_python_idle.txt", 0)
    assert enforced_limit(facts, m) == ("ram+swap", m["ram_used_bytes"], facts.ram_total_bytes)
    assert enforced_limit(MachineFacts("darwin"), {}) is None


def test_a_container_is_judged_by_its_cgroup_limit():
    # GIVEN the project's machine kind inside a 3 GiB memory cgroup (recorded meminfo; cgroup reading)
    facts, m = linux_reading("meminfo_idle_24g_noswap.txt", "status_python_idle.txt", 0)
    inside = MachineFacts(
        "linux",
        overcommit_mode=0,
        ram_total_bytes=facts.ram_total_bytes,
        swap_total_bytes=0,
        cgroup_limit_bytes=3 * GIB,
    )
    assert enforced_limit(inside, {**m, "cgroup_used_bytes": 2 * GIB}) == ("cgroup", 2 * GIB, 3 * GIB)


# ---------------------------------------------------------------- the document
class CountingSensors(ScriptedSensors):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.platform = "win32"
        self.snapshots = 0

    def snapshot(self, *, disks: bool = True, system_max_age_s: float = 0.0):
        self.snapshots += 1
        return super().snapshot(disks=disks)


@pytest.fixture
def exporter():
    """A Windows machine with an RTX 3060 (sensors scripted from the recorded readings) after a
    traced txt2img run; the latest reading is the sampler's row of the same figures."""
    _, reading = windows_reading()
    clock = FakeClock()
    sensors = CountingSensors(clock, lambda t: windows_fields(), lambda t: (RTX_3060,))
    tracker = Tracker(sensors, clock=clock)
    stats = RunStats()
    tracker.subscribe(stats)
    exporter = MetricsExporter.for_sensors(
        stats,
        sensors,
        latest=lambda: (1_800_000_000.0, reading),
        cpu=lambda: {"hook_cpu_s": 0.5, "sampler_cpu_s": 2.0, "ledger_cpu_s": 0.25, "process_cpu_s": 300.0},
        state=lambda: {"tracing": True, "run_active": False},
        info={"version": "0.1.0", "comfyui_version": "0.3.64", "compute_device": "cuda"},
    )
    tracker.subscribe(exporter)
    judge = judged_by(tracker, stats)
    replay_trace(tracker, clock, read_trace("txt2img"), TXT2IMG)
    assert judge.flush()
    return exporter, sensors, tracker, clock


def samples(text: str) -> dict[tuple[str, frozenset], float]:
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def test_the_document_names_and_labels(exporter):
    x, *_ = exporter
    body, content_type = x.exposition()
    assert content_type.startswith("text/plain; version=0.0.4")
    got = samples(body.decode())
    gpu = frozenset({"gpu": "0", "name": "NVIDIA GeForce RTX 3060"}.items())
    assert got[("memprobe_gpu_used_bytes", gpu)] == int(11.2 * GIB)
    assert got[("memprobe_gpu_total_bytes", gpu)] == 12 * GIB
    assert got[("memprobe_gpu_torch_reserved_bytes", gpu)] == 10 * GIB
    assert got[("memprobe_gpu_shared_used_bytes", gpu)] == GIB
    assert got[("memprobe_process_private_bytes", frozenset())] == 11 * GIB
    limit = frozenset({"limit": "commit"}.items())
    assert got[("memprobe_enforced_limit_used_bytes", limit)] / got[("memprobe_enforced_limit_bytes", limit)] > 0.9
    assert got[("memprobe_runs_total", frozenset({"status": "success"}.items()))] == 1
    assert got[("memprobe_run_failures_total", frozenset({"kind": "vram", "stage": "vae-decode"}.items()))] == 0
    assert got[("memprobe_cpu_seconds_total", frozenset({"part": "sampler"}.items()))] == 2.0
    assert (
        got[
            (
                "memprobe_build_info",
                frozenset({"version": "0.1.0", "comfyui_version": "0.3.64", "compute_device": "cuda"}.items()),
            )
        ]
        == 1
    )
    count = frozenset({"stage": "sampling"}.items())
    assert got[("memprobe_stage_peak_process_resident_bytes_count", count)] == 1
    for name, _ in got:  # Prometheus conventions: a prefix, base units, _total on counters
        assert name.startswith("memprobe_")
    families = {f.name: f.type for f in text_string_to_metric_families(body.decode())}
    assert all(
        name.endswith(("_bytes", "_seconds", "_enabled", "_active", "_info")) or families[name] == "counter"
        for name in families
    )
    label_names = {k for _, labels in got for k, _ in labels}
    assert label_names == {
        "gpu",
        "name",
        "limit",
        "status",
        "kind",
        "stage",
        "part",
        "le",
        "version",
        "comfyui_version",
        "compute_device",
    }


def test_prometheus_gets_openmetrics_when_it_asks(exporter):
    x, *_ = exporter
    accept = "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5"  # Prometheus 2.42's
    body, content_type = x.exposition(accept)
    assert content_type.startswith("application/openmetrics-text; version=1.0.0")
    text = body.decode()
    assert text.endswith("# EOF\n")
    names = {f.name for f in parse_openmetrics(text)}
    assert {"memprobe_runs", "memprobe_gpu_used_bytes", "memprobe_stage_peak_process_resident_bytes"} <= names


def test_a_scrape_takes_no_reading_and_touches_no_global_registry(exporter):
    x, sensors, *_ = exporter
    before_global = set(prometheus_client.REGISTRY._names_to_collectors)
    before = sensors.snapshots
    for _ in range(50):
        x.exposition()
    assert sensors.snapshots == before
    assert set(prometheus_client.REGISTRY._names_to_collectors) == before_global
    assert not any(n.startswith("memprobe") for n in before_global)


def test_no_prompt_text_ids_or_titles_in_the_document(exporter):
    x, _, tracker, clock = exporter
    tracker.begin_run("c0ffee-prompt-id", prompt=TXT2IMG, context={"workflow_name": "secret client"})
    node = tracker.node_begin("c0ffee-prompt-id", "node-77", "KSampler")
    tracker.node_failed(node, RuntimeError("a watercolor painting of a lighthouse"))
    tracker.end_run("c0ffee-prompt-id", "error")
    text = x.exposition()[0].decode()
    for private in ("c0ffee", "node-77", "watercolor", "lighthouse", "secret", TXT2IMG["4"]["inputs"]["ckpt_name"]):
        assert private not in text


def test_promtool_accepts_the_document(exporter):
    x, *_ = exporter
    promtool = shutil.which("promtool")
    if promtool is None:
        if REQUIRE_PROMTOOL:
            pytest.fail("promtool is not installed (Debian: apt-get install prometheus)")
        pytest.skip("promtool is not installed (Debian: apt-get install prometheus)")
    result = subprocess.run([promtool, "check", "metrics"], input=x.exposition()[0], capture_output=True, timeout=30)
    assert result.returncode == 0, result.stdout.decode() + result.stderr.decode()


def test_the_grafana_dashboard_reads_only_series_the_exporter_serves(exporter):
    import json
    import re

    from helpers import ROOT

    x, *_ = exporter
    served = {name for name, _ in samples(x.exposition()[0].decode())}
    dashboard = json.loads((ROOT / "docs" / "grafana" / "memprobe.json").read_text(encoding="utf-8"))
    queries = [t["expr"] for p in dashboard["panels"] for t in p.get("targets", [])]
    queries += [v["query"]["query"] for v in dashboard["templating"]["list"] if v["type"] == "query"]
    used = {name for q in queries for name in re.findall(r"memprobe_\w+", q)}
    assert used - served == set()
    assert {
        "memprobe_gpu_used_bytes",
        "memprobe_enforced_limit_bytes",
        "memprobe_run_failures_total",
        "memprobe_stage_peak_gpu_used_bytes_bucket",
        "memprobe_stage_peak_process_resident_bytes_bucket",
    } <= used
    assert all(t["datasource"]["uid"] == "${datasource}" for p in dashboard["panels"] for t in p.get("targets", []))
