"""The facts every rule and the verdict read: one type, filled from a traced run
(:meth:`RunFacts.from_run`) or from what a log says (``memprobe.logs.explain``), so a rule never
knows which it judges and a new fact is added in one place.

>>> facts = RunFacts.from_run({"status": "success", "nodes": []})
>>> facts.failure is None, facts.compute.name
(True, 'RAM')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..documents import EventDoc, FailureDoc, MachineDoc, Metrics, ModelDoc, NodeDoc, Prompt, RunDoc
from ..format import fmt_bytes
from ..privacy import scrub_text
from ..vocabulary import kind_of
from .limits import CGROUP, COMMIT, MemoryLimit
from .residency import partial_loads
from .runfacts import compute_limit, executed_nodes, known_totals, limit_from, memory_limits, run_peaks
from .sizes import MessageSizes, message_sizes
from .workflow import workflow_parameters

__all__ = ["FailureFacts", "ForecastHints", "RunFacts", "of_limit", "short"]


@dataclass(slots=True)
class FailureFacts:
    """The first failure: what ran out, where, and what its message says."""

    kind: str
    """A failure kind of :mod:`memprobe.vocabulary` (``vram`` ... ``other``)."""
    node_id: str | None = None
    class_type: str | None = None
    stage: str | None = None
    message: str | None = None
    exception_type: str | None = None
    abrupt: bool = False
    """ComfyUI ended without an error (killed, crashed); ``evidence`` says what is known of why."""
    evidence: str | None = None
    snapshot: dict[str, Any] | None = None
    """The readings at the failure (a traced run)."""
    sizes: MessageSizes = field(default_factory=MessageSizes)
    """What the message says of sizes (requested, total, free, allocated, limit)."""
    pack: str | None = None
    """The custom node pack the failing code is in, where known."""
    likely: bool = False
    """The kind is inferred, not stated (a bare SIGKILL taken for the OOM killer): the advice says how to confirm it."""
    container: bool = False
    """ComfyUI ran in a container (the log's docker prefixes, an exit code 137)."""
    crashed_in: str | None = None
    """Where it crashed or ran out, where that is not ComfyUI's server: ``comfy-aimdo`` (a native crash in dynamic
    VRAM's code), ``window`` (the window ComfyUI runs in ran out of memory: the Desktop app's renderer, a page),
    ``child`` (a process a prompt started: the prompt went on and finished)."""
    after_sampling: str | None = None
    """A log that names neither node nor stage: the sampler's finished progress bar it failed right after."""
    before_prompts: bool = False
    """An end that a log shows after ComfyUI's start-up and before any prompt ran (no model loaded, nothing
    sampled)."""
    between_prompts: bool = False
    """An end that a log shows after a prompt had finished and before another began: ComfyUI was idle."""
    cut: bool = False
    """A log that stops mid-run with no sign of an end (no error, no kill, no exit): ComfyUI stopped there, or the log
    was cut when it was copied."""
    in_tiled_retry: bool = False
    """It failed in ComfyUI's own retry of the decode in tiles (its default tiles ran short too)."""
    unsaid: bool = False
    """The error itself is not in the log: an excerpt cut inside the traceback, before the line that names what was
    raised (a log's failure only; ``kind`` is then ``other``: nothing says what ran out)."""

    @property
    def who(self) -> str:
        """What ended without an error: ComfyUI, or a process its prompt started (``crashed_in == "child"``)."""
        return "A process its prompt started" if self.crashed_in == "child" else "ComfyUI"

    @property
    def when(self) -> str:
        """When an abrupt end came, in words: ``mid-run``, ``before any prompt ran`` or ``between prompts``."""
        return (
            "before any prompt ran" if self.before_prompts else "between prompts" if self.between_prompts else "mid-run"
        )

    @property
    def where(self) -> str:
        """Where it failed, in words: ``at VAEDecode (vae-decode)``, ``in a node of custom_nodes/<pack>``."""
        where = (
            f"at {self.class_type}"
            if self.class_type
            else f"in a node of custom_nodes/{self.pack}"
            if self.pack
            else "in a node the log does not name"
        )
        return where + (f" ({self.stage})" if self.stage else "")

    @property
    def memory(self) -> bool:
        """A memory ran out (VRAM or system memory)."""
        return kind_of(self.kind).memory

    @property
    def said(self) -> str:
        """What ran out, in words, and the error's first line: ``GPU memory (VRAM) ran out: Allocation on device``
        (an end without an error: what is known of why)."""
        return f"{kind_of(self.kind).ran_out}: {short(self.evidence, 120) if self.abrupt else short(self.message)}"

    @property
    def verdict_kind(self) -> str:
        """The kind, with ``abrupt`` for an end nobody explained."""
        return "abrupt" if self.abrupt and not kind_of(self.kind).ran_short else self.kind

    @classmethod
    def from_doc(cls, doc: FailureDoc) -> FailureFacts:
        message = doc.get("message")
        return cls(
            kind=doc.get("kind") or "other",
            node_id=doc.get("node_id"),
            class_type=doc.get("class_type"),
            stage=doc.get("stage"),
            message=message,
            exception_type=doc.get("exception_type"),
            abrupt=bool(doc.get("abrupt")),
            evidence=doc.get("evidence"),
            snapshot=doc.get("snapshot"),
            sizes=message_sizes(message),
        )


@dataclass(frozen=True, slots=True)
class ForecastHints:
    """What a forecast found would fit, for the rules to name (a forecast's facts only): the tile size
    of each decode node that fits, a batch and a latent size that fit, what fp8 weights would save."""

    tiles: dict[str, int] = field(default_factory=dict)
    batch: int | None = None
    size: tuple[int, int] | None = None
    fp8_saves_bytes: int | None = None
    fits_note: dict[str, str] = field(default_factory=dict)
    """Per change (``tile``, ``batch``, ``size``): the forecast's figure for it (``4.1 GiB of 8.0 GiB VRAM``)."""


@dataclass(slots=True)
class RunFacts:
    """A run (or a log, or a forecast), read once for every rule."""

    status: str
    context: dict[str, Any]
    nodes: list[NodeDoc]
    """The nodes that executed, in order (a log has at most the failing one)."""
    failure: FailureFacts | None
    compute: MemoryLimit
    """The memory ComfyUI computes on (VRAM, or the enforced system limit on the CPU)."""
    limits: list[MemoryLimit]
    """The limits of system memory, the one the OS enforces first."""
    peaks: Metrics = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
    events: list[EventDoc] = field(default_factory=list)
    partials: list[dict[str, Any]] = field(default_factory=list)
    """Every partial load (``memprobe.judging.residency.partial_loads``)."""
    machine: MachineDoc = field(default_factory=dict)
    prompt: Prompt | None = None
    start_metrics: Metrics = field(default_factory=dict)
    end_metrics: Metrics = field(default_factory=dict)
    models_end: list[ModelDoc] | None = None
    model_readings: list[list[ModelDoc] | None] = field(default_factory=list)
    timeline: dict[str, Any] | None = None
    totals: Metrics = field(default_factory=dict)
    """The totals and limits the readings carry (``ram_total_bytes``, ``gpu0_total_bytes`` ...)."""
    source: str = "run"
    """``run`` (traced), ``log`` (explained) or ``forecast``."""
    forecast: ForecastHints | None = None
    """A forecast's facts: what it found would fit."""

    @classmethod
    def from_run(cls, doc: RunDoc, machine: MachineDoc | None = None) -> RunFacts:
        nodes = executed_nodes(doc)
        failure = doc.get("failure")
        return cls(
            status=str(doc.get("status") or ""),
            context=doc.get("context") or {},
            nodes=nodes,
            failure=FailureFacts.from_doc(failure) if failure else None,
            compute=compute_limit(doc),
            limits=memory_limits(doc),
            peaks=run_peaks(doc),
            params=workflow_parameters(doc.get("prompt")),
            events=list(doc.get("events") or []),
            partials=partial_loads(doc),
            machine=machine or {},
            prompt=doc.get("prompt"),
            start_metrics=doc.get("start_metrics") or {},
            end_metrics=doc.get("end_metrics") or {},
            models_end=doc.get("models_end"),
            model_readings=[n.get("models") for n in nodes] + [doc.get("models_end")],
            timeline=dict(doc["timeline"]) if doc.get("timeline") else None,
            totals=known_totals(doc),
        )

    # ------------------------------------------------------------------ what the rules ask
    @property
    def system(self) -> MemoryLimit:
        """The limit the OS enforces on system memory (RAM + swap, the commit limit, a cgroup's)."""
        return self.limits[0]

    @property
    def metric(self) -> str:
        return self.compute.metric

    @property
    def on_cpu(self) -> bool:
        return self.context.get("compute_device") == "cpu" or not self.metric.startswith("gpu")

    @property
    def fails(self) -> str:
        """How the rules say it failed: ``failed``, or for a forecast ``would fail``."""
        return "would fail" if self.source == "forecast" else "failed"

    @property
    def failed(self) -> bool:
        """The run failed of a memory (VRAM or system memory)."""
        return self.failure is not None and self.failure.memory

    @property
    def os(self) -> str:
        return str(self.context.get("os") or (self.machine.get("platform") or {}).get("system") or "")

    @property
    def argv(self) -> list[str]:
        return [str(a) for a in self.context.get("argv") or []]

    @property
    def install(self) -> str:
        return str((self.context.get("install") or {}).get("type") or "unknown")

    @property
    def memory_name(self) -> str:
        if not self.on_cpu:
            return "VRAM"
        if self.compute.name == CGROUP:
            return "the container's memory"
        return "commit" if self.metric == "commit_bytes" else "RAM"

    def limit_of(self, metric: str) -> int | None:
        """The ceiling ``metric`` runs into (VRAM, RAM, the commit limit, a container's limit)."""
        return limit_from(self.totals, self.context, metric)

    def node_peak(self, node: NodeDoc) -> int | None:
        """What counts against the compute memory's limit at the node's peak."""
        return self.compute.used(node.get("peaks") or {})

    def of_limit(self, used: int | None) -> str:
        """``2.7 GiB of 23.5 GiB RAM (12%)``: a figure against the compute limit, named."""
        return of_limit(self.compute, used)

    def failed_in(self, *stages: str) -> bool:
        return self.failed and self.failure is not None and self.failure.stage in stages

    def failing_node(self) -> NodeDoc | None:
        if self.failure is None:
            return None
        found = self.node(self.failure.node_id) if self.failure.node_id is not None else None
        if found is None and self.source == "log" and self.nodes:
            return self.nodes[0]
        return found

    def node(self, node_id: Any) -> NodeDoc | None:
        return next((n for n in self.nodes if n.get("node_id") == node_id), None)

    def fallback_nodes(self, kind: str) -> set[str | None]:
        return {e.get("node_id") for e in self.events if e.get("kind") == kind}

    def fallback_message(self, kind: str, node_id: str | None) -> str:
        """What ComfyUI said of its first fallback of ``kind`` in ``node_id`` ("" where it said none)."""
        return next(
            (e.get("message") or "" for e in self.events if e.get("kind") == kind and e.get("node_id") == node_id), ""
        )

    def system_pressure(self) -> list[str]:
        """Evidence that system memory ran short: a failure of that kind, an abrupt end, or a peak
        near the limit the OS enforces."""
        out = []
        failure = self.failure
        if failure is not None and kind_of(failure.kind).resource == "system":
            out.append(f"the run failed at {self.label(self.failing_node())} ({failure.said})")
        if failure is not None and failure.abrupt:
            out.append(f"{failure.who} ended without an error {failure.when}")
        if self.system.near(self.peaks):  # judged by the limit the OS enforces, never Linux's CommitLimit
            used = self.system.used(self.peaks)
            out.append(f"{USAGE_WORDS.get(self.system.name, self.system.name)} reached {of_limit(self.system, used)}")
        return out

    def vram_of_others(self, node: NodeDoc | None, device: str | None) -> int | None:
        """VRAM other programs held when ``node`` began: the device's use minus torch's reserve."""
        index = device.split(":")[1] if device and device.startswith("cuda:") and ":" in device else "0"
        before = (node or {}).get("before") or {}
        used, reserved = before.get(f"gpu{index}_used_bytes"), before.get(f"gpu{index}_reserved_bytes")
        return used - reserved if used is not None and reserved is not None else None

    def label(self, node: NodeDoc | None) -> str:
        if node is None:
            return "an unnamed node"
        title, class_type = node.get("title"), node.get("class_type")
        name = f"{title} ({class_type})" if title and title != class_type else class_type
        return f"node {node.get('node_id')} {name}" if node.get("node_id") else str(name)  # a log may not print the id


USAGE_WORDS = {
    "RAM": "RAM in use",
    "RAM + swap": "RAM + swap in use",
    COMMIT: "commit",
    CGROUP: "the container's memory in use",
}


def of_limit(limit: MemoryLimit, used: int | None) -> str:
    """``2.7 GiB of 23.5 GiB RAM (12%)``, ``2.1 GiB of the 2.2 GiB container limit (98%)``."""
    if used is None:
        return "n/a"
    if not limit.limit_bytes:
        return fmt_bytes(used)
    share = f"{100 * used / limit.limit_bytes:.0f}%"
    if "limit" in limit.name:
        return (
            f"{fmt_bytes(used)} of the {fmt_bytes(limit.limit_bytes)} {limit.name.replace(' (cgroup)', '')} ({share})"
        )
    return f"{fmt_bytes(used)} of {fmt_bytes(limit.limit_bytes)} {limit.name} ({share})"


def short(text: Any, limit: int = 90) -> str:
    """The first line of an error, paths shortened to file names, at most ``limit`` characters."""
    first = scrub_text(str(text or "").strip().splitlines()[0]) if str(text or "").strip() else "no message"
    return first if len(first) <= limit else first[: limit - 1] + "…"
