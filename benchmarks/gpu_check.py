"""The GPU check: one prepared command for the day a GPU is lent (the device tool: 15 minutes of device
time for a session, 10 a command). On an NVIDIA GPU, in a real ComfyUI with the tiny checkpoint, it

1. reads VRAM three ways — Memory Probe's reading, NVML's, torch's — and compares them;
2. checks that per-node VRAM peaks are exact: a node allocates a known CUDA spike and frees it at once,
   and the node's recorded peak must hold it (torch's peak counters, restarted at each node);
3. forces a VAE decode out of memory (another program holds all but 3 GiB of the card; ``--reserve-vram`` cannot:
   ComfyUI sizes a decode by the card's real free memory) and checks that the failure is caught at that node as VRAM,
   or — where ComfyUI retries in tiles — that the retry is recorded; then the one-click swap to VAE Decode (Tiled)
   makes the same run pass;
4. runs with ``--lowvram`` and checks that the residency shows the partial load;
5. raises torch's own out-of-memory errors on the machine (each allocator set-up, the CPU allocator) and checks that
   ``memprobe explain`` names each and gives a first step: text nobody here wrote;
6. brings each server's ComfyUI log back (``comfyui_<step>.log``) with what explain reads in it;
7. writes one JSON report (``gpu_check.json``) to bring back.

``--dry-run`` goes through every step on the CPU here — the ComfyUI set-up CI builds, a server with
Memory Probe, a run, the logs, the report — with the GPU steps marked ``skipped (dry run)``, and exits 0: a test
(tests/integration/test_gpu_check.py) keeps it from rotting.

On the device machine (nothing can be fetched there), ``benchmarks/gpu_device.sh`` builds what it needs from a kit
the call carries (ComfyUI's archive, the tiny checkpoint's maker, the wheels the machine's image lacks; the script
says which, and how to make it) and runs this check (rehearsed here with ``--dry-run`` in a bare venv: 46 s):

    bash benchmarks/gpu_device.sh                                     # there: the report lands in $OUT
    PYTHON=<a bare venv's python> bash benchmarks/gpu_device.sh --dry-run   # here: the same path, on the CPU
    python benchmarks/gpu_check.py --dry-run --out /tmp/gpu-check     # here, with CI's ComfyUI
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))
SPIKE_PACK = ROOT / "tests" / "integration" / "nodes_spike"
MIB = 1024**2
BUDGET_S = 8 * 60


def _spike(mib: int, seed: int, device: str) -> dict[str, Any]:
    return {"1": {"class_type": "MemProbeTestSpike", "inputs": {"mib": mib, "seed": seed, "device": device}}}


class Check:
    def __init__(self, dry_run: bool, out: Path, work: Path) -> None:
        self.dry_run = dry_run
        self.out = out
        self.work = work
        self.started = time.monotonic()
        self.report: dict[str, Any] = {
            "dry_run": dry_run,
            "machine": {"python": platform.python_version(), "os": f"{platform.system()} {platform.release()}"},
            "steps": {},
        }
        self.install: Any = None
        self.servers: list[tuple[Any, str]] = []
        self.current = ""

    # ------------------------------------------------------------------ plumbing
    def step(self, name: str, fn: Callable[[], dict[str, Any]], *, gpu: bool = False) -> None:
        if gpu and self.dry_run:
            self.report["steps"][name] = {"status": "skipped (dry run)"}
            return
        if time.monotonic() - self.started > BUDGET_S:
            self.report["steps"][name] = {"status": "skipped (out of time)"}
            return
        t0 = time.monotonic()
        self.current = name
        try:
            result = fn()
            status = "ok" if result.pop("ok", True) else "failed"
        except Exception as exc:  # one failing step costs that step only
            result, status = {"error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc(limit=4)}, "failed"
        self.report["steps"][name] = {"status": status, "seconds": round(time.monotonic() - t0, 1), **result}
        print(f"[gpu_check] {name}: {status}", flush=True)

    def server(self, *args: str, extensions: list[Path] | None = None) -> Any:
        from comfy_server import REPO, ComfyServer

        folder = self.work / f"server-{len(list(self.work.glob('server-*')))}"
        folder.mkdir(parents=True)
        extra = os.environ.get("MEMPROBE_COMFYUI_ARGS", "").split()  # e.g. --front-end-root where no frontend wheel is
        server = ComfyServer(
            self.install, folder, extensions=extensions or [REPO], args=[*args, *extra], cpu=self.dry_run
        )
        self.servers.append((server, self.current))
        return server.start()

    # ------------------------------------------------------------------ steps
    def environment(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        try:
            import torch

            out["torch"] = torch.__version__
            out["cuda"] = bool(torch.cuda.is_available())
            if out["cuda"]:
                out["gpu"] = torch.cuda.get_device_name(0)
                out["vram_total_bytes"] = torch.cuda.get_device_properties(0).total_memory
        except ImportError:
            out["torch"] = None
        try:
            import pynvml

            pynvml.nvmlInit()
            out["nvml_driver"] = pynvml.nvmlSystemGetDriverVersion()
        except Exception as exc:  # no NVIDIA driver here (the dry run)
            out["nvml"] = f"unavailable ({type(exc).__name__})"
        out["ok"] = self.dry_run or bool(out.get("cuda"))
        return out

    def comfyui(self) -> dict[str, Any]:
        """The ComfyUI to run: one already built (CI's, ``EVAL_ROOT``), else built from the archive."""
        from comfy_server import find_comfyui, install_requirements

        found = find_comfyui()
        if isinstance(found, str):
            recipe = Path(os.environ.get("MEMPROBE_SHARED", ROOT.parent / "shared")) / "comfyui-local" / "setup.sh"
            if not recipe.exists():
                return {"ok": False, "error": found + f"; and no {recipe} to build one"}
            env = {**os.environ, "EVAL_ROOT": str(self.work / "comfy-eval")}
            subprocess.run(["bash", str(recipe)], check=True, env=env, timeout=BUDGET_S)
            os.environ["EVAL_ROOT"] = env["EVAL_ROOT"]
            found = find_comfyui()
            if isinstance(found, str):
                return {"ok": False, "error": found}
        install_requirements(found)
        self.install = found
        return {"root": str(found.root), "version": found.version}

    def readings(self) -> dict[str, Any]:
        """A run's VRAM as Memory Probe read it, against NVML's and torch's views at the same time."""
        from comfy_server import load_workflow

        server = self.server()
        try:
            prompt = load_workflow("txt2img", **{"5.width": 512, "5.height": 512, "3.seed": 7})
            prompt_id, history = server.run(prompt, timeout_s=300)
            doc = server.memprobe_run(prompt_id)
            live = server.get("/memprobe/live")
            out = {
                "run_status": doc["status"],
                "metric": (doc.get("memory") or {}).get("metric"),
                "peaks": {s: v["peaks"] for s, v in (doc.get("stages") or {}).items()},
                "gpus": (doc.get("context") or {}).get("gpus"),
            }
            if not self.dry_run:
                import pynvml

                handle = pynvml.nvmlDeviceGetHandleByIndex(0)
                nvml_used = pynvml.nvmlDeviceGetMemoryInfo(handle).used
                ours = (live.get("status") or {}).get("memory") or {}
                out["nvml_used_bytes"] = nvml_used
                out["memprobe_live"] = ours
                out["ok"] = doc["status"] == "success" and out["metric"] == "gpu0_used_bytes"
            else:
                out["ok"] = doc["status"] == "success" and bool(out["peaks"])
            return out
        finally:
            server.stop()

    def exact_peaks(self) -> dict[str, Any]:
        """A node allocates a known spike and frees it at once; its recorded peak must hold it."""
        from comfy_server import REPO

        device = "cpu" if self.dry_run else "cuda"
        server = self.server(extensions=[REPO, SPIKE_PACK])
        try:
            results = []
            for seed in range(5):
                prompt_id, history = server.run(_spike(256, seed, device))
                truth = history["outputs"]["1"]
                (node,) = server.memprobe_run(prompt_id)["nodes"]
                if device == "cuda":
                    spike = truth["vram_top"][0] - truth["vram_before"][0]
                    recorded = (node["peaks"].get("gpu0_allocated_bytes") or 0) - (
                        node["before"].get("gpu0_allocated_bytes") or 0
                    )
                else:
                    spike = truth["rss_top"][0] - truth["rss_before"][0]
                    recorded = node["peaks"]["process_rss_bytes"] - node["before"]["process_rss_bytes"]
                results.append({"spike_mib": round(spike / MIB, 1), "recorded_mib": round(recorded / MIB, 1)})
            caught = sum(1 for r in results if r["recorded_mib"] >= 0.95 * r["spike_mib"])
            return {"runs": results, "caught": caught, "ok": caught == len(results)}
        finally:
            server.stop()

    def _hold_vram(self, leave_bytes: int) -> tuple[subprocess.Popen[str], int]:
        """Another program holding all of the card's free memory but ``leave_bytes`` (a game, a second ComfyUI; as
        a smaller card would): plain device allocations, given back when it exits (at the end of its stdin)."""
        code = (
            "import sys, torch\n"
            "free, _ = torch.cuda.mem_get_info()\n"
            f"held = torch.empty(max(0, free - {leave_bytes}), dtype=torch.uint8, device='cuda')\n"
            "print('held', held.numel(), flush=True)\n"
            "sys.stdin.read()\n"
        )
        proc = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = proc.stdout.readline() if proc.stdout else ""
        if not line.startswith("held"):
            proc.kill()
            raise RuntimeError(f"could not hold the card's memory: {line!r}")
        return proc, int(line.split()[1])

    def decode_oom(self) -> dict[str, Any]:
        """Another program leaves ComfyUI 3 GiB of the card, too little for a 2048² decode (~8.5 GiB in bf16): caught
        at the decode as VRAM (or retried in tiles, and recorded); then the swap to VAE Decode (Tiled) passes. (A
        ``--reserve-vram`` does not make a decode fail: ComfyUI sizes a decode by the card's real free memory.)"""
        holder, held = self._hold_vram(3 * 1024**3)
        try:
            result = self._decode_oom()
            result["held_by_another_program_gib"] = round(held / 1024**3, 1)
            return result
        finally:
            if holder.stdin:
                holder.stdin.close()
            holder.wait(30)

    def _decode_oom(self) -> dict[str, Any]:
        from comfy_server import load_workflow

        server = self.server()
        try:
            big = load_workflow("txt2img", **{"5.width": 2048, "5.height": 2048, "3.steps": 1, "3.seed": 11})
            prompt_id, history = server.run(big, timeout_s=420)
            doc = server.memprobe_run(prompt_id)
            failure = doc.get("failure") or {}
            retried = [e for e in doc.get("events") or [] if e.get("kind") == "tiled-vae-decode"]
            first = (doc.get("suggestions") or [{}])[0]
            tiled = json.loads(json.dumps(big))
            tiled["8"] = {
                "class_type": "VAEDecodeTiled",
                "inputs": {
                    **tiled["8"]["inputs"],
                    "tile_size": (first.get("action") or {}).get("tile_size", 512),
                    "overlap": 64,
                    "temporal_size": 64,
                    "temporal_overlap": 8,
                },
            }
            tiled["3"]["inputs"]["seed"] = 12
            _, after = server.run(tiled, timeout_s=420)
            caught = failure.get("kind") == "vram" and failure.get("node_id") == "8"
            return {
                "status": doc["status"],
                "failure": {k: failure.get(k) for k in ("kind", "node_id", "stage", "message")},
                "tiled_retry_recorded": bool(retried),
                "first_suggestion": first.get("id"),
                "tiled_run": after["status"]["status_str"],
                "ok": (caught or bool(retried)) and after["status"]["status_str"] == "success",
            }
        finally:
            server.stop()

    def lowvram(self) -> dict[str, Any]:
        """``--lowvram`` with a reserve that leaves less than the model: the residency shows a partial load."""
        from comfy_server import load_workflow

        total = self.report["steps"]["environment"].get("vram_total_bytes") or 0
        server = self.server("--lowvram", "--reserve-vram", f"{max(0.0, total / 1024**3 - 1.2):.1f}")
        try:
            prompt_id, _ = server.run(load_workflow("txt2img", **{"3.seed": 13}), timeout_s=300)
            doc = server.memprobe_run(prompt_id)
            partial = [
                c
                for n in doc.get("nodes") or []
                for c in n.get("model_changes") or []
                if c.get("change") in ("partially-loaded", "offloaded")
            ]
            return {"partial_loads": partial[:4], "ok": bool(partial)}
        finally:
            server.stop()

    OOM_CASES: dict[str, tuple[str, dict[str, str], str]] = {
        # what runs out, as torch raises it on this machine: (code, environment, the kind explain must name)
        "cuda_caching_allocator": ("torch.empty(2**40, dtype=torch.uint8, device='cuda')", {}, "vram"),
        "cuda_malloc_async": (
            "torch.empty(2**40, dtype=torch.uint8, device='cuda')",
            {"PYTORCH_CUDA_ALLOC_CONF": "backend:cudaMallocAsync"},
            "vram",
        ),
        "cuda_expandable_segments": (
            "torch.empty(2**40, dtype=torch.uint8, device='cuda')",
            {"PYTORCH_CUDA_ALLOC_CONF": "expandable_segments:True"},
            "vram",
        ),
        "cuda_memory_fraction": (
            "torch.cuda.set_per_process_memory_fraction(0.02); torch.empty(2**33, dtype=torch.uint8, device='cuda')",
            {},
            "vram",
        ),
        "cuda_card_full": (
            "held = [torch.empty(2**33, dtype=torch.uint8, device='cuda') for _ in range(64)]",
            {},
            "vram",
        ),
        "cpu_allocator": ("torch.empty(2**44, dtype=torch.uint8)", {}, "system-ram"),
    }

    def oom_texts(self) -> dict[str, Any]:
        """torch's own out-of-memory errors on this machine (each allocator set-up), as Python prints them when
        nothing catches them, and what ``memprobe explain`` names each: text no one here wrote."""
        from memprobe.logs.explain import explain_log

        cases: dict[str, Any] = {}
        for name, (code, env, kind) in self.OOM_CASES.items():
            proc = subprocess.run(
                [sys.executable, "-c", f"import torch\n{code}"],
                capture_output=True,
                text=True,
                timeout=120,
                env={**os.environ, **env},
            )
            text = proc.stderr[-4000:]
            judged = explain_log(text)
            failure = judged.get("failure") or {}
            cases[name] = {
                "rc": proc.returncode,
                "text": text,
                "expected": kind,
                "kind": failure.get("kind"),
                "suggestions": [s["id"] for s in judged.get("suggestions") or []],
            }
        raised = {n: c for n, c in cases.items() if c["rc"] != 0}
        right = sum(1 for c in raised.values() if c["kind"] == c["expected"] and c["suggestions"])
        return {"cases": cases, "raised": len(raised), "named_and_advised": right, "ok": right == len(raised)}

    def logs(self) -> dict[str, Any]:
        """Each server's ComfyUI log, brought back, and what ``memprobe explain`` reads in it."""
        from memprobe.logs.explain import explain_log

        out: dict[str, Any] = {}
        for server, step in self.servers:
            if not server.log_path.exists():
                continue
            target = self.out / f"comfyui_{step}.log"
            self.out.mkdir(parents=True, exist_ok=True)
            target.write_bytes(server.log_path.read_bytes()[-8 * MIB :])
            judged = explain_log(target.read_bytes())
            failure = judged.get("failure") or {}
            out[step] = {
                "prompts_completed": judged["prompts"]["completed"],
                "kind": failure.get("kind"),
                "class_type": (failure.get("node") or {}).get("class_type"),
                "fallbacks": [f.get("kind") for f in judged.get("fallbacks") or []],
                "suggestions": [s["id"] for s in judged.get("suggestions") or []],
            }
        return {"read": out}

    def run(self) -> int:
        self.step("environment", self.environment)
        self.step("comfyui", self.comfyui)
        if self.install is not None:
            self.step("readings", self.readings)
            self.step("exact_peaks", self.exact_peaks)
            self.step("decode_oom", self.decode_oom, gpu=True)
            self.step("lowvram", self.lowvram, gpu=True)
        self.step("oom_texts", self.oom_texts, gpu=True)
        self.step("logs", self.logs)
        self.report["seconds"] = round(time.monotonic() - self.started, 1)
        self.out.mkdir(parents=True, exist_ok=True)
        (self.out / "gpu_check.json").write_text(json.dumps(self.report, indent=2, default=str), encoding="utf-8")
        failed = [n for n, s in self.report["steps"].items() if s["status"] == "failed"]
        print(f"[gpu_check] report: {self.out / 'gpu_check.json'}; failed: {failed or 'none'}", flush=True)
        return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dry-run", action="store_true", help="every step but the GPU ones, on the CPU here")
    parser.add_argument("--out", default=os.environ.get("OUT", "gpu-check-out"), help="folder for gpu_check.json")
    parser.add_argument("--work", default=None, help="scratch folder (servers, a ComfyUI it builds)")
    args = parser.parse_args()
    import tempfile

    work = Path(args.work or tempfile.mkdtemp(prefix="memprobe-gpu-check-"))
    return Check(args.dry_run, Path(args.out), work).run()


if __name__ == "__main__":
    sys.exit(main())
