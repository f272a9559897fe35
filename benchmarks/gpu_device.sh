#!/usr/bin/env bash
# The GPU check (benchmarks/gpu_check.py) on the device machine, which holds torch with CUDA but no ComfyUI and
# reaches no network. What it needs travels in an ignored folder of the checkout (GPU_KIT, default .gpu):
#   ComfyUI-0.3.64-*.tar.gz     ComfyUI's source archive (the one the CPU set-up builds from)
#   make_tiny_checkpoint.py      makes the tiny random-weight SD1.5 checkpoint there (10 s; 480 MiB would not travel)
#   whl/*.whl                    what ComfyUI imports that the machine's image lacks (torchsde, trampoline, av,
#                                pydantic and its parts), for CPython 3.12 on x86-64
# It has no frontend wheel: ComfyUI serves an empty page (--front-end-root); the check drives its HTTP API.
# Making the kit (here, in the checkout's root; about 42 MiB, within the 64 MiB a call carries with the tree):
#   echo /.gpu/ >> .git/info/exclude; mkdir -p .gpu/whl
#   cp <ComfyUI-0.3.64 archive> <make_tiny_checkpoint.py> .gpu/      (the CPU set-up's, beside this checkout)
#   python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
#     --platform manylinux_2_28_x86_64 --platform manylinux2014_x86_64 -d .gpu/whl torchsde==0.2.6 trampoline==0.1.2 \
#     av==18.1.0 pydantic==2.14.4 pydantic_core==2.50.5 annotated-types==0.8.0 typing-inspection==0.4.5
# and the call: run(command="bash benchmarks/gpu_device.sh", carry=[".gpu"]).
#   bash benchmarks/gpu_device.sh [--dry-run]    (from the checkout's root; the report lands in $OUT)
# PYTHON (default python3) is the one with torch; the same script rehearses on a CPU with --dry-run.
set -euo pipefail
PY=${PYTHON:-python3}
KIT=${GPU_KIT:-.gpu}
WORK=${GPU_WORK:-/tmp/memprobe-gpu}
"$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$WORK/site" "$KIT"/whl/*.whl
export PYTHONPATH="$WORK/site${PYTHONPATH:+:$PYTHONPATH}"
mkdir -p "$WORK/ComfyUI" "$WORK/frontend"
tar -xzf "$KIT"/ComfyUI-*.tar.gz -C "$WORK/ComfyUI" --strip-components=1
"$PY" "$KIT/make_tiny_checkpoint.py" --comfyui "$WORK/ComfyUI" --taesd-ckpt-out '' --vae-out '' --taesd-out ''
echo '<!doctype html><title>ComfyUI</title>' >"$WORK/frontend/index.html"
export MEMPROBE_COMFYUI="$WORK/ComfyUI" MEMPROBE_COMFYUI_PYTHON="$(command -v "$PY")"
export MEMPROBE_COMFYUI_ARGS="--front-end-root $WORK/frontend" PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,memory.total,memory.used,driver_version --format=csv || true
exec "$PY" benchmarks/gpu_check.py --out "${OUT:-gpu-check-out}" --work "$WORK/servers" "$@"
