"""Memory Probe's figures in the Prometheus exposition format, made by the official client library
(``prometheus_client``) in a registry of its own: nothing is added to the library's global
registry, no process or platform collectors are started.

A scrape reads what is already there: the sampler's newest reading (at most 20 ms old while a run
executes, 1 s when idle), the machine facts read at start-up and after each run, Memory Probe's own
CPU counters and the :class:`~memprobe.recording.runstats.RunStats` counts. It takes no new reading and
writes nothing.

Names follow Prometheus' conventions: the ``memprobe_`` prefix, base units in the name (``_bytes``,
``_seconds``), ``_total`` on counters. Labels: ``gpu`` (index) and ``name`` on GPU series, ``limit``
on the enforced limit, ``status``, ``kind`` and ``stage`` on the run counters, ``stage`` (and ``gpu``)
on the stage peak histograms, and the opt-in ``workflow``. The scraping Prometheus adds
``instance`` and ``job``. No run id, node id, path, prompt or user name is ever a label.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from prometheus_client.exposition import choose_encoder
from prometheus_client.metrics_core import Metric
from prometheus_client.registry import Collector, CollectorRegistry
from prometheus_client.utils import floatToGoString

from ..judging.limits import CGROUP, COMMIT, os_family, system_limits
from ..recording.listener import TrackerListener
from ..recording.records import RunRecord
from ..recording.runstats import PEAK_BUCKETS_BYTES, RunStats
from ..sensing.sensors import Sensors
from ..sensing.snapshot import Metrics

__all__ = ["MachineFacts", "MetricsExporter", "enforced_limit"]

_LE = [floatToGoString(b) for b in PEAK_BUCKETS_BYTES] + ["+Inf"]  # type: ignore[no-untyped-call]


@dataclass(frozen=True, slots=True)
class MachineFacts:
    """What the sampler's rows leave out because it hardly changes: sizes, GPU names, the OS rule."""

    platform: str
    overcommit_mode: int | None = None
    ram_total_bytes: int | None = None
    swap_total_bytes: int | None = None
    gpus: tuple[tuple[int, str, int | None], ...] = ()
    """(index, name, total bytes) of each GPU."""
    cgroup_limit_bytes: int | None = None
    """The memory limit of ComfyUI's Linux cgroup (a container's), when one is set."""

    @classmethod
    def read(cls, sensors: Sensors) -> MachineFacts:
        snap = sensors.snapshot(disks=False)
        s = snap.system
        cgroup = sensors.cgroup()
        return cls(
            platform=sensors.platform,
            overcommit_mode=s.overcommit_mode,
            ram_total_bytes=s.ram_total_bytes,
            swap_total_bytes=s.swap_total_bytes,
            gpus=tuple((g.index, g.name or "", g.device_total_bytes) for g in snap.gpus),
            cgroup_limit_bytes=cgroup.limit_bytes if cgroup is not None else None,
        )


_LIMIT_LABELS = {COMMIT: "commit", CGROUP: "cgroup"}


def enforced_limit(facts: MachineFacts, metrics: Mapping[str, int]) -> tuple[str, int, int] | None:
    """The system memory limit this OS actually enforces (:func:`memprobe.judging.limits.system_limits`),
    as (name, in use, limit):

    - Linux in a memory cgroup whose limit is below RAM (a container): ``cgroup``, the cgroup's
      memory in use against its limit;
    - Windows, and Linux with strict overcommit (``vm.overcommit_memory`` = 2): ``commit``, the
      commit charge against the commit limit (RAM + pagefile / ``CommitLimit``);
    - Linux in modes 0 and 1, macOS and others: ``ram+swap``, RAM + swap in use against RAM + swap
      (``Committed_AS`` is not enforced there; the OOM killer acts when RAM + swap run out).

    ``None`` when the readings for it are missing.

    >>> linux = MachineFacts("linux", overcommit_mode=0, ram_total_bytes=16 * 2**30, swap_total_bytes=4 * 2**30)
    >>> enforced_limit(linux, {"ram_used_bytes": 10 * 2**30, "swap_used_bytes": 2**30, "commit_bytes": 30 * 2**30})
    ('ram+swap', 11811160064, 21474836480)
    """
    limit = system_limits(
        os_family(facts.platform),
        overcommit_mode=facts.overcommit_mode,
        ram_total=facts.ram_total_bytes,
        swap_total=facts.swap_total_bytes,
        commit_limit=metrics.get("commit_limit_bytes"),
        cgroup_limit=facts.cgroup_limit_bytes,
    )[0]
    used = limit.used(metrics)
    if used is None or not limit.limit_bytes:
        return None
    return _LIMIT_LABELS.get(limit.name, "ram+swap"), used, limit.limit_bytes


class _Families:
    """Builds metric families sample by sample (a label is left out where its value is empty,
    so a series counted without the opt-in ``workflow`` label carries none)."""

    def __init__(self) -> None:
        self.out: list[Metric] = []

    def family(self, name: str, doc: str, typ: str, unit: str = "") -> Metric:
        metric = Metric(name, doc, typ, unit)
        self.out.append(metric)
        return metric

    @staticmethod
    def labels(**values: str) -> dict[str, str]:
        return {k: v for k, v in values.items() if v != ""}

    def gauge(self, name: str, doc: str, unit: str, value: float | None, **labels: str) -> None:
        if value is not None:
            self.family(name, doc, "gauge", unit).add_sample(name, self.labels(**labels), value)


class _Collector(Collector):
    def __init__(self, exporter: MetricsExporter) -> None:
        self.x = exporter

    def collect(self) -> Iterator[Metric]:
        f = _Families()
        self.x._add_state(f)
        self.x._add_readings(f)
        self.x._add_counts(f)
        return iter(f.out)


class MetricsExporter(TrackerListener):
    """The ``/memprobe/metrics`` document. Subscribe it to the tracker so it re-reads the machine
    facts after each run (sizes move when a pagefile grows or swap is added)."""

    def __init__(
        self,
        stats: RunStats,
        *,
        latest: Callable[[], tuple[float, Metrics] | None],
        facts: Callable[[], MachineFacts],
        cpu: Callable[[], Mapping[str, float]] = dict,
        state: Callable[[], Mapping[str, Any]] = dict,
        info: Mapping[str, str | None] | None = None,
    ) -> None:
        self.stats = stats
        self.latest = latest
        self.read_facts = facts
        self.facts = facts()
        self._facts_read_at = time.monotonic()
        self.cpu = cpu
        self.state = state
        self.info = {k: v for k, v in (info or {}).items() if v}
        self.registry = CollectorRegistry()
        self.registry.register(_Collector(self))

    @classmethod
    def for_sensors(cls, stats: RunStats, sensors: Sensors, **kwargs: Any) -> MetricsExporter:
        return cls(stats, facts=lambda: MachineFacts.read(sensors), **kwargs)

    FACTS_REFRESH_S = 60.0
    """The facts hardly change: they are read again after a run at most this often (this runs on
    ComfyUI's worker thread, between two prompts; a scrape never reads)."""

    def run_finished(self, run: RunRecord) -> None:
        now = time.monotonic()
        if now - self._facts_read_at >= self.FACTS_REFRESH_S:
            self._facts_read_at = now
            self.facts = self.read_facts()

    def exposition(self, accept: str | None = None) -> tuple[bytes, str]:
        """The document and its content type, in the format the ``Accept`` header asks for
        (OpenMetrics for Prometheus itself, the classic text format otherwise)."""
        encode, content_type = choose_encoder(accept or "")
        return encode(self.registry), content_type

    # ------------------------------------------------------------------ families
    def _add_state(self, f: _Families) -> None:
        info = f.family(
            "memprobe_build", "Memory Probe and ComfyUI versions, and the device ComfyUI computes on", "info"
        )
        info.add_sample("memprobe_build_info", dict(self.info), 1)
        state = self.state()
        f.gauge(
            "memprobe_tracing_enabled",
            "1 while every node is traced (setting on and the hook installed)",
            "",
            1 if state.get("tracing") else 0,
        )
        f.gauge("memprobe_run_active", "1 while a run executes", "", 1 if state.get("run_active") else 0)
        cpu = self.cpu()
        if cpu:
            family = f.family(
                "memprobe_cpu_seconds", "CPU time Memory Probe itself has used, by part", "counter", "seconds"
            )
            for key, value in sorted(cpu.items()):
                if key != "process_cpu_s":
                    family.add_sample("memprobe_cpu_seconds_total", {"part": key.removesuffix("_cpu_s")}, value)
            if "process_cpu_s" in cpu:
                family = f.family(
                    "memprobe_process_cpu_seconds", "CPU time of the whole ComfyUI process", "counter", "seconds"
                )
                family.add_sample("memprobe_process_cpu_seconds_total", {}, cpu["process_cpu_s"])

    def _add_readings(self, f: _Families) -> None:
        latest, facts = self.latest(), self.facts
        if latest is None:
            return
        wall, m = latest
        f.gauge("memprobe_reading_timestamp_seconds", "When the readings below were taken (Unix time)", "seconds", wall)
        gpu_series = (
            ("memprobe_gpu_used_bytes", "GPU memory in use on the device, every process (driver/NVML)", "used_bytes"),
            ("memprobe_gpu_torch_reserved_bytes", "GPU memory torch's caching allocator holds", "reserved_bytes"),
            ("memprobe_gpu_torch_allocated_bytes", "GPU memory in live torch tensors", "allocated_bytes"),
            (
                "memprobe_gpu_shared_used_bytes",
                "Shared GPU memory in use (system RAM lent to the GPU; Windows)",
                "shared_bytes",
            ),
        )
        gpus = facts.gpus
        if gpus:
            total = f.family("memprobe_gpu_total_bytes", "GPU memory of the device", "gauge", "bytes")
            for index, name, size in gpus:
                if size is not None:
                    total.add_sample("memprobe_gpu_total_bytes", f.labels(gpu=str(index), name=name), size)
            for metric_name, doc, suffix in gpu_series:
                family = f.family(metric_name, doc, "gauge", "bytes")
                for index, name, _ in gpus:
                    value = m.get(f"gpu{index}_{suffix}")
                    if value is not None:
                        family.add_sample(metric_name, f.labels(gpu=str(index), name=name), value)
        f.gauge(
            "memprobe_ram_used_bytes",
            "RAM in use by the whole machine (total - available)",
            "bytes",
            m.get("ram_used_bytes"),
        )
        f.gauge("memprobe_ram_total_bytes", "RAM of the machine", "bytes", facts.ram_total_bytes)
        f.gauge("memprobe_swap_used_bytes", "Swap / pagefile in use", "bytes", m.get("swap_used_bytes"))
        f.gauge("memprobe_swap_total_bytes", "Swap / pagefile size", "bytes", facts.swap_total_bytes)
        f.gauge(
            "memprobe_commit_bytes",
            "Commit charge (Windows) / Committed_AS (Linux); see "
            "memprobe_enforced_limit_bytes for whether this OS enforces a limit on it",
            "bytes",
            m.get("commit_bytes"),
        )
        f.gauge(
            "memprobe_commit_limit_bytes",
            "Commit limit: RAM + pagefile (Windows) / CommitLimit (Linux, enforced only with vm.overcommit_memory = 2)",
            "bytes",
            m.get("commit_limit_bytes"),
        )
        f.gauge(
            "memprobe_process_resident_bytes", "ComfyUI's resident memory (RSS)", "bytes", m.get("process_rss_bytes")
        )
        f.gauge(
            "memprobe_process_private_bytes",
            "ComfyUI's private memory (Windows Private Bytes; Linux RssAnon + VmSwap)",
            "bytes",
            m.get("process_private_bytes"),
        )
        limit = enforced_limit(facts, m)
        if limit is not None:
            name, used, size = limit
            f.gauge(
                "memprobe_enforced_limit_bytes",
                "The system memory limit this OS enforces: commit limit "
                "(Windows, Linux overcommit mode 2) or RAM + swap (Linux modes 0/1, macOS)",
                "bytes",
                size,
                limit=name,
            )
            f.gauge(
                "memprobe_enforced_limit_used_bytes",
                "What counts against memprobe_enforced_limit_bytes",
                "bytes",
                used,
                limit=name,
            )

    def _add_counts(self, f: _Families) -> None:
        counts = self.stats.counts()
        runs = f.family(
            "memprobe_runs",
            "Runs finished, by outcome (ended_abruptly: found at start-up, its ComfyUI having died during it)",
            "counter",
        )
        for (status, workflow), n in sorted(counts["runs"].items()):
            runs.add_sample("memprobe_runs_total", f.labels(status=status, workflow=workflow), n)
        failures = f.family(
            "memprobe_run_failures",
            "Runs that failed, by the memory that ran out (kind: vram, "
            "system-ram, commit-limit, disk, other) and the stage of the failing node",
            "counter",
        )
        for (kind, stage, workflow), n in sorted(counts["failures"].items()):
            failures.add_sample("memprobe_run_failures_total", f.labels(kind=kind, stage=stage, workflow=workflow), n)
        fallbacks = f.family(
            "memprobe_fallbacks",
            "Silent out-of-memory fallbacks ComfyUI took (tiled VAE retry, "
            "attention fallback) and VRAM spills into shared memory, by kind and stage",
            "counter",
        )
        for (kind, stage, workflow), n in sorted(counts["fallbacks"].items()):
            fallbacks.add_sample("memprobe_fallbacks_total", f.labels(kind=kind, stage=stage, workflow=workflow), n)
        gpu = f.family(
            "memprobe_stage_peak_gpu_used_bytes",
            "Each run's peak GPU memory in use during a stage",
            "histogram",
            "bytes",
        )
        for (stage, index, workflow), hist in sorted(counts["gpu_peaks"].items()):
            _histogram(gpu, f.labels(stage=stage, gpu=index, workflow=workflow), *hist)
        ram = f.family(
            "memprobe_stage_peak_process_resident_bytes",
            "Each run's peak resident memory of ComfyUI during a stage",
            "histogram",
            "bytes",
        )
        for (stage, workflow), hist in sorted(counts["ram_peaks"].items()):
            _histogram(ram, f.labels(stage=stage, workflow=workflow), *hist)


def _histogram(family: Metric, labels: dict[str, str], cumulative: list[int], total: float, count: int) -> None:
    for le, n in zip(_LE, cumulative, strict=True):
        family.add_sample(family.name + "_bucket", {**labels, "le": le}, n)
    family.add_sample(family.name + "_count", labels, count)
    family.add_sample(family.name + "_sum", labels, total)
