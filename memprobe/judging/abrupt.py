"""What ended a run whose ComfyUI vanished mid-run (found ``running`` in the ledger at the next
start): the node it was in, and the evidence of what ended it — the kernel's OOM-kill counters
first, then the last readings against the limit the OS enforces.

>>> abrupt_failure({"node_id": "8", "class_type": "VAEDecode", "stage": "vae-decode"}, {}, 3.5)["kind"]
'other'
"""

from __future__ import annotations

from typing import Any

from ..documents import FailureDoc, RunDoc
from ..format import fmt_bytes
from .runfacts import memory_limits

__all__ = ["abrupt_failure", "kill_evidence"]


def abrupt_failure(
    node: dict[str, Any] | None,
    last: dict[str, int],
    t_s: float | None,
    header: dict[str, Any] | None = None,
    kills_now: dict[str, Any] | None = None,
) -> FailureDoc:
    """What is known of a run whose process vanished: the running node, and what ended it.

    The kernel's OOM-kill counters (read at the run's start and at this start, same boot) are the
    strongest evidence: ComfyUI's cgroup's ``oom_kill`` rising means its container limit ended
    it; the machine's (``/proc/vmstat``) rising means RAM + swap ran out. Otherwise the last
    readings (up to a second before the end) are judged against the limit the OS enforces."""
    context = (header or {}).get("context") or {}
    kind, evidence = kill_evidence(context, kills_now or {})
    if kind == "other":
        doc: RunDoc = {"context": context, "end_metrics": last}
        for limit in memory_limits(doc):
            if limit.near(last):
                kind = (
                    "cgroup-limit"
                    if limit.metric == "cgroup_used_bytes"
                    else "commit-limit"
                    if limit.metric == "commit_bytes"
                    else "system-ram"
                )
                evidence = f"its last readings had {limit.name} at {100 * (limit.share(last) or 0):.0f}% of its limit"
                break
        else:
            evidence = "its last readings were not near a memory limit (sampled up to one second before the end)"
    return {
        "node_id": node.get("node_id") if node else None,
        "class_type": node.get("class_type") if node else None,
        "stage": node.get("stage") if node else None,
        "kind": kind,
        "exception_type": None,
        "message": f"ComfyUI ended during this run without reporting an error (killed by the OS, "
        f"crashed or closed): {evidence}",
        "evidence": evidence,
        "t_s": t_s,
        "snapshot": None,
        "consequence": False,
        "abrupt": True,
    }


def kill_evidence(context: dict[str, Any], now: dict[str, Any]) -> tuple[str, str]:
    """``(kind, evidence)`` from the OOM-kill counters at the run's start and now."""
    start = context.get("oom_kills") or {}
    if not start or not now or not start.get("boot_id") or start.get("boot_id") != now.get("boot_id"):
        return "other", ""
    before, after = start.get("cgroup"), now.get("cgroup")
    if (
        before is not None
        and after is not None
        and after > before
        and start.get("cgroup_path") == now.get("cgroup_path")
    ):
        limit = (context.get("cgroup") or {}).get("limit_bytes")
        return "cgroup-limit", (
            f"the kernel's OOM killer ended {after - before} process(es) in ComfyUI's cgroup "
            f"{now.get('cgroup_path')} while this run executed (oom_kill {before} -> {after}); its "
            f"memory limit is {fmt_bytes(limit)}"
        )
    before, after = start.get("system"), now.get("system")
    if before is not None and after is not None and after > before:
        return "system-ram", (
            f"the kernel's OOM killer ended {after - before} process(es) on this machine while "
            f"this run executed (/proc/vmstat oom_kill {before} -> {after}): RAM + swap ran out"
        )
    return "other", ""
