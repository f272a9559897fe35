"""The words of what ends a process for memory: the kernel's OOM killer and its kin (earlyoom, systemd-oomd, nohang,
macOS' jetsam, Android's low-memory killer, Ray's monitor), a memory cgroup's (a container's, a job's, a platform's
limit), Windows' exhausted commit, the window ComfyUI runs in. :func:`memory_kill` says which one a line names;
:mod:`memprobe.logs.endings` reads the other ways a process ends."""

from __future__ import annotations

import re

from ..judging.wordings import FOUNDRY_OOM, SRUN_OOM

__all__ = [
    "CGROUP_KILL",
    "COMMIT_EXHAUSTED",
    "MEMORY_KILL",
    "OOM_KILLED_FALSE",
    "WINDOW_OOM",
    "memory_kill",
]

MEMORY_KILL = (
    "lowmemorykiller: kill",  # Android's: "lowmemorykiller: Kill 'com.app' (25702), uid 10123, ... to free 4223760kB"
    "and low swap space",  # macOS' panic report: "Compressor Info: ... with 12 swapfiles and LOW swap space"
    "just before the backend process failed",  # SwarmUI: its ComfyUI backend died with system memory near full
    "terminated due to memory issue",  # macOS' (Xcode's debugger): the system ended the app for its memory footprint
    "because it is using too much memory",  # ... Xcode's newer words for iOS' kill ("The app "X" has been killed by the
    # operating system because it is using too much memory.")
    "killing largest compressed process",  # macOS' kernel: its compressor full ("memorystatus: killing largest ...")
    "out of memory: killed process",
    "out of memory: kill process",  # older kernels ("... score 900 or sacrifice child")
    "killed by the oom killer",  # systemd: "A process of this unit has been killed by the OOM killer."
    "killed by the kernel oom killer",  # a platform's ("Container killed by the kernel OOM killer")
    "oom-kill:",
    "invoked oom-killer",
    "oom_reaper",
    "failed with result 'oom-kill'",  # systemd: the kernel's OOM killer ended the unit's process
    "oom killed",  # a platform's word for the kernel's kill ("container was OOM killed")
    "oom-killed",
    "due to memory pressure",  # systemd-oomd (Ubuntu, Fedora): "Killed /user.slice/... due to memory pressure for ..."
    "due to memory used",  # ... and its swap kill: "... due to memory used (N) / total (N) and swap used ..."
    "out of memory and no killable processes",  # the kernel, with nothing left to kill
    "not syncing: out of memory",  # the kernel's panic_on_oom
    "out of memory: oom victim",  # the kernel, its victim already exiting
    "(vm-pageshortage",  # macOS' jetsam: "memorystatus: killing_top_process pid N [python3.11] (vm-pageshortage ..."
    "system oom encountered",  # Kubernetes' SystemOOM event: "System OOM encountered, victim process: python"
    "send sigkill to the victim",  # nohang: "Implement a corrective action: Send SIGKILL to the victim; total ..."
    "send sigterm to the victim",
    "memory status that requires corrective actions",  # ... and the low memory it acts on
    "exceeds the memory usage threshold",  # Ray's memory monitor: "Memory on the node ... was 12.49GB / 13.15GB
    # (0.950003), which exceeds the memory usage threshold of 0.95. Ray killed this worker"
    "ray-oom-prevention.html",  # ... the same kill's last sentences, alone where a job's log kept only its tail
    # ("Refer to the documentation on how to address the out of memory issue: https://docs.ray.io/.../ray-oom-...")
    "low on resource: memory",  # Kubernetes evicted the pod: its node's memory ran low (not the container's limit)
    "run out of application memory",  # macOS: "Your system has run out of application memory."
    "(result: oom-kill)",  # systemctl status: "Active: failed (Result: oom-kill) since ..."
    "was killed: failed to reclaim memory",  # FreeBSD's kernel ("pid 52546 (AdGuardHome), jid 0, uid 0, was killed:
    "was killed: out of swap space",  # failed to reclaim memory"; older releases: "... out of swap space")
    "total-vm:",  # the OOM killer's line on its victim, also without its "Out of memory: " head ("Killed process
    # 14036 (g_mmpbsa) total-vm:26639468kB")
    "tasks state (memory values in pages)",  # the kernel's table of tasks, printed only by the OOM killer (the victim's
    # line may be cut from a paste)
)
"""The kernel's OOM killer and its kin ending a process for want of RAM and swap (earlyoom, systemd-oomd, nohang, macOS'
jetsam, Android's low-memory killer, Ray's monitor, a node's pressure in Kubernetes)."""
WINDOW_OOM = ("render-process-gone reason=oom", "(reason: 'oom'", "-536870904", "renderer process oom - see")
"""The window ComfyUI runs in ran out of memory: Electron's event for the Desktop app's renderer, an Electron app's
dialog for its window ("The window terminated unexpectedly (reason: 'oom', code: '-536870904')") and its console
("Renderer process oom - see https://www.electronjs.org/docs/tutorial/application-debugging ..."), Chromium's exit code
for a renderer's OOM (0xE0000008, as Electron's render-process-gone details print it). The server is another process."""
CGROUP_KILL = (
    "memory cgroup out of memory",
    "oom kill was invoked by a cgroup",  # GKE's node event ("This OOM kill was invoked by a cgroup, containerID: ...")
    "constraint=constraint_memcg",
    "oomkilled",
    "memory.max",
    "memory limit exceeded",  # a Hugging Face Space's status when its container went over its limit
    "exceeded its memory limit",  # a platform's words ("Error: container exceeded its memory limit")
    "memory quota exceeded",  # Heroku's R14/R15
    "memory quota vastly exceeded",
    "ran out of memory (used over",  # Render's: "Server unhealthy. Ran out of memory (used over 2GB) while running your
    # code." (its instance type's memory)
    "killed as a result of limit of",  # the kernel's memory cgroup (v1): "Task in /docker/... killed as a result of ..."
    "container oom ",  # docker's event: "... container oom 3f9c2a1b7d4e (image=comfyui:latest, name=comfyui)"
    "oom-kill event(s) in step",  # Slurm: "Detected 1 oom-kill event(s) in StepId=191.batch cgroup" ("in step 42.batch")
    "oom_kill event in stepid",  # ... as newer releases word it: "Detected 1 oom_kill event in StepId=42.batch. ..."
    "oom_kill events in stepid",
    "mem_cgroup_out_of_memory",  # the kernel's stack of an OOM kill inside a memory cgroup (dmesg)
    "memory cgroup stats for ",  # ... and its statistics' heading ("Memory cgroup stats for /system.slice/docker-...")
    "memory+swap: usage ",  # the kernel's report of a memory cgroup at its OOM ("memory+swap: usage 117964800kB, limit
    # 117964800kB, failcnt 0"), a line a paste may hold alone
    "killed by yarn for exceeding memory limits",  # Hadoop YARN's container (Spark's executors)
    "exceeded job memory limit",  # slurmstepd: "error: Exceeded job memory limit" (its cgroup's), older releases
    "exceeded step memory limit",
    "exceeded memory limit (",  # ... and older still: "slurmstepd: Job 3410940 exceeded memory limit (15912452 >
    # 15728640), being killed"
    "job had an out of memory error",  # a Slurm site's job summary (Sigma2's) after its cgroup's OOM kills
    "beyond the 'physical' memory limit",  # Hadoop YARN's container monitor ("Container [pid=...] is running 2.1GB
    "beyond the 'virtual' memory limit",  # beyond the 'PHYSICAL' memory limit"), and as older releases word it
    "beyond physical memory limits",
    "beyond virtual memory limits",
    "exceeded the memory limit of",  # a platform's ("The container was killed as it exceeded the memory limit of 4g")
    "runtime exited with error: signal: killed",  # AWS Lambda: the function at the memory size it was given
    "killed because of exceeding allocated physical memory",  # DMLC's YARN application master on a task ("[DMLC]
    # Task 26 killed because of exceeding allocated physical memory": XGBoost's workers, the container it asked for)
    "under_oom detected",  # a Cray node's job cgroup at its limit ("under_oom detected for 5 seconds. Cache usage ...
    # re-enabling OOM killer", then "rank 19 died from signal 9")
    "killed due to excessive memory consumption",  # Read the Docs' builder at its limit on a build's memory ("Command
    # killed due to excessive memory consumption")
    'exit message: "oom killed"',  # Nomad's Docker driver on a task's container ('Exit Code: 137, Exit Message: "OOM
    # Killed"')
    # batch schedulers at the memory a job asked for (as Slurm's cgroup above):
    "pbs: job killed: mem ",  # PBS Pro and Torque ("=>> PBS: job killed: mem 38427376kb exceeded limit 33554432kb"),
    "pbs: job killed: vmem ",  # on its virtual memory ("... vmem 3372163072 exceeded limit 2147483648"), per process
    "pbs: job killed: pmem ",
    "pbs: job killed: pvmem ",
    "job exceeded a memory resource limit",  # Torque's mail ("Job exceeded a memory resource limit (vmem, pvmem, etc.).
    # Job was aborted")
    "exceeded mem usage hard limit",  # Moab ("job 3132467 exceeded MEM usage hard limit (2528 > 1126)")
    "term_memlimit",  # IBM LSF ("TERM_MEMLIMIT: job killed after reaching LSF memory usage limit.")
    "killed by htcondor due to excessive memory",  # HTCondor ("Job killed by HTCondor due to excessive memory use (RSS=
    "periodic_hold due to memory usage",  # 2250 MB)"), and its pool's hold ("Job in status 2 put on hold by
    # SYSTEM_PERIODIC_HOLD due to memory usage 3000000.")
)
"""The kernel's OOM killer acting inside a memory cgroup (a container's limit), Kubernetes' OOMKilled; a batch
scheduler ending a job at the memory it asked for (Slurm's cgroup, PBS', LSF's, HTCondor's)."""
OOM_KILLED_FALSE = re.compile(r"oomkilled\"?\s*:\s*false", re.IGNORECASE)
"""docker inspect's state of a container its memory cgroup's OOM killer did not end (``"OOMKilled": false``)."""
_CGROUP_USAGE = re.compile(r"\bmemory: usage \d+kb, limit \d+kb\b")
"""The kernel's report of a memory cgroup at its OOM, its first line ("memory: usage 6291460kB, limit 6291456kB,
failcnt 254573"): a container's limit reached."""
_NO_FREE_SWAP = re.compile(r"\bfree swap\s*=\s*0kb")
"""The kernel's OOM report (its memory's state as the OOM killer chose a victim): "Free swap  = 0kB"."""
_SACCT_OOM = re.compile(r"\s(?:out_of_memory|out_of_me\+)\s+\d")
"""Slurm's accounting (``sacct``) on a job step its cgroup's OOM handler ended: the state column before the exit code
("python3.12  default  1 OUT_OF_ME+    0:125", the state cut to ten characters by default) or before another column
a format asked for ("as_TM1_spw33_cube  astronomy-dept  astronomy-dept-b OUT_OF_ME+     5725     256G ...")."""
_MEMORY_LIMIT_OF = re.compile(r"\bmemory limit of [\d.]+ ?[kmgt]i?b?\b.{0,12}\bexceeded")
"""A hosting platform's own kill (Cloud Run: "Memory limit of 2048 MiB exceeded with 2101 MiB used")."""
COMMIT_EXHAUSTED = (
    "resource-exhaustion-detector",
    "low virtual memory condition",
    "lack of virtual memory in the system",  # the same event as a translation words it ("The lack of virtual memory in
    # the system was successfully detected. The following programs allocated the largest amount ...")
    "small or disabled pagefile",  # SwarmUI, right after its backend died with memory near full
    "programs consumed the most virtual memory",  # its event's second sentence, where a paste kept only it ("The
    # following programs consumed the most virtual memory: acs.exe (19260) consumed 18984587264 bytes, ...")
    "windows is running low on memory",  # the detector's warning to the user ("Your computer is low on memory", in
    "your computer is low on memory",  # Windows 7's words)
    "dass der virtuelle speicher unzureichend ist",  # the detector's event in German ("Windows hat diagnostiziert, dass
    # der virtuelle Speicher unzureichend ist. Die folgenden Programme belegten den meisten virtuellen Speicher: ...")
)
"""Windows' own words that its commit limit was reached (its resource-exhaustion detector's event)."""


def memory_kill(low: str) -> str | None:
    """``cgroup-kill`` (a memory cgroup's OOM killer: a container's, a job's or a platform's limit), ``memory-kill``
    (the kernel's OOM killer or its kin, RAM and swap exhausted), ``commit-exhausted`` (Windows' commit limit),
    ``window-oom`` (the window ComfyUI runs in), or ``None`` for a line (``low``: lower-cased) that names none."""
    if (
        (
            any(p in low for p in CGROUP_KILL)
            and "(memory_limit_exceeded)" not in low
            and "resource_type_memory" not in low
            and "global rss memory limit" not in low  # (QuestDB's own)
        )
        # (ClickHouse's own limit; iOS' on an app: memprobe.judging.caps.OWN_LIMITS)
        or _MEMORY_LIMIT_OF.search(low)
        or SRUN_OOM.match(low)
        or _SACCT_OOM.search(low.rstrip())
        or _CGROUP_USAGE.search(low)
        or FOUNDRY_OOM.search(low)
    ):
        return "cgroup-kill"
    if (
        "container" in low
        and "low on resource" not in low
        and " invoked oom-killer" not in low  # (the task that asked for memory when the kernel's OOM killer ran:
        # "containerd invoked oom-killer: ...", a host daemon, not a container's limit)
        and "constraint_none" not in low  # (the kernel's global OOM: "oom-kill:constraint=CONSTRAINT_NONE,...,
        # cpuset=containerd.service,...,global_oom" names a cpuset, not a memory cgroup's limit)
        and any(p in low for p in MEMORY_KILL)
    ):
        return "cgroup-kill"  # "Container killed by the kernel OOM killer" (an eviction names its container too)
    if (
        any(p in low for p in MEMORY_KILL)
        or ("sending sig" in low and ("earlyoom" in low or "badness" in low))
        or ("systemd-oomd" in low and ": killed /" in low)  # an older oomd's kill, its reason in the lines above it
        or ("kernel:" in low and _NO_FREE_SWAP.search(low))
    ):
        return "memory-kill"
    if any(p in low for p in COMMIT_EXHAUSTED):
        return "commit-exhausted"
    if any(p in low for p in WINDOW_OOM):
        return "window-oom"
    return None
