"""Short pastes written here, each in the words a program far from ComfyUI prints (the corpus' own logs of those
programs are read in ``test_log_far_programs.py``): a notebook's traceback, a launcher's signal, and the phrasings
held-out rounds taught — flattened pastes, kills under an error, user-space killers, start failures, what is no
failure."""

from __future__ import annotations

import pytest

from memprobe.logs.explain import explain_log


def test_a_notebooks_traceback_keeps_its_type_and_its_message():
    # IPython's head names the exception first; its frames are not Python's; its message comes last, or was cut
    head = "MemoryError                               Traceback (most recent call last)\n"
    frames = "<ipython-input-13-b36d> in <module>\n----> 4 df = pd.read_csv(path)\n\n~/lib/parsers.py in f(x)\n"
    cut = explain_log(head + frames)["failure"]
    assert (cut["kind"], cut["exception_type"]) == ("system-ram", "MemoryError")
    whole = explain_log(head + frames + "\nMemoryError: Unable to allocate 1.2 GiB for an array\n")["failure"]
    assert (
        whole["message"] == "Unable to allocate 1.2 GiB for an array" and not explain_log(head + frames)["consequences"]
    )


def test_a_launchers_word_on_its_shards_signal():
    # huggingface/text-generation-inference's launcher: "Shard process was signaled to shutdown with signal N"
    started = "INFO shard-manager: text_generation_launcher: Starting shard rank=0\n"
    killed = explain_log(started + "ERROR Shard process was signaled to shutdown with signal 9 rank=0\n")["failure"]
    crashed = explain_log(started + "ERROR Shard process was signaled to shutdown with signal 4 rank=0\n")["failure"]
    assert (killed["kind"], killed["ending"]) == ("system-ram", "killed")
    assert (crashed["kind"], crashed["ending"]) == ("abrupt", "crash")


PHRASES = [
    # a page flattened the paste: the error before a progress bar on its line, a shell's "Killed" ending it
    (
        "OutOfMemoryError: CUDA out of memory. Tried to allocate 20.00 MiB (GPU 0; 6.00 GiB total capacity; 5.24 GiB"
        " already allocated) steps:   0%|          | 1/2100 [00:03<2:05:34,  3.59s/it, loss=0.473]",
        "vram",
    ),
    (
        "Load mgx model Loading 1024 seq-len version model from models/llama-2-7b-chat-hf/model Parsing from onnx"
        " file... Killed",
        "system-ram",
    ),
    (
        "[ 1299.228531] Out of memory: Killed process 11552 (olive) total-vm:43667312kB, anon-rss:31484340kB,"
        " file-rss:0kB, shmem-rss:0kB",
        "system-ram",
    ),
    # an excerpt cut inside torch's exception name
    ("AutoBatch: Using batch-size 281 for CUDA:0 16.87G/23.99G (70%)\n\ntorch.cuda.OutOfMemoryErro", "vram"),
    ("torch.cuda.OutOfMemoryErrors", None),
    # a kill's line under an exception's message is its own, not more of the message
    (
        "RuntimeError: DataLoader worker (pid(s) 2150614) exited unexpectedly\nslurmstepd: error: Detected 1 oom-kill"
        " event(s) in StepId=15043231.batch. Some of your processes may have been killed by the cgroup out-of-memory"
        " handler.",
        "cgroup-limit",
    ),
    ("RuntimeError: boom\n[  123.4] Out of memory: Killed process 123 (python)", "system-ram"),
    # the memory named under a launcher's report that its child exited: the child's own words say why
    (
        "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 978.00 MiB (GPU 0; 4.00 GiB total capacity)"
        "\n[ERROR] [launch.py:321:sigkill_handler] ['python3', 'run.py'] exits with return code = 1",
        "vram",
    ),
    # tracebacks interleaved: the first has lost its error, a later one states it
    (
        '  File "<frozen importlib._bootstrap>", line 986, in _find_and_load_unlocked\n\n  File "train.py", line 13,'
        " in <module>\n    import torch\nOSError: [WinError 1455] The paging file is too small for this operation to"
        " complete.",
        "commit-limit",
    ),
    # user-space killers and pressure: Ray's memory monitor, nohang, an older systemd-oomd's kill, the kernel's own
    (
        "Memory on the node (IP: 10.0.0.2) where the task was running was 12.49GB / 13.15GB (0.950003), which exceeds"
        " the memory usage threshold of 0.95. Ray killed this worker",
        "system-ram",
    ),
    (
        "nohang-desktop[24588]: Implement a corrective action:\nnohang-desktop[24588]:   Send SIGKILL to the victim;"
        " total response time: 609 ms",
        "system-ram",
    ),
    ("avril 16 21:08:50 systemd-oomd[93234]: Killed /user.slice/user-1000.slice/app.slice/tmux", "system-ram"),
    (
        "[638074.104526] kernel: kswapd0: page allocation failure: order:0, mode:0x40cc0(GFP_KERNEL|__GFP_COMP)",
        "system-ram",
    ),
    ("Abnormal program termination: memory exhausted", "system-ram"),
    ("virtual memory exhausted: Cannot allocate memory", "system-ram"),
    # MLX's Metal; Windows' full disk in Japanese
    (
        "libc++abi: terminating due to uncaught exception of type std::runtime_error: [METAL] Command buffer execution"
        " failed: Insufficient Memory",
        "vram",
    ),
    ("System.IO.IOException: ディスクに十分な空き領域がありません。 : 'S:\\game\\mods.cfg'", "disk"),
    # Rust: a panic is an error (its message below it since 1.73); a panic that cannot unwind aborts
    (
        "thread 'tokio-runtime-worker' panicked at C:\\cubecl\\client.rs:298:41:\ncalled `Result::unwrap()` on an `Err`"
        " value: BufferTooBig(2156988480)\nnote: run with `RUST_BACKTRACE=1` environment variable",
        "other",
    ),
    ("thread caused non-unwinding panic. aborting.", "abrupt"),
    # a program that could not start (a DLL not found, or failed to start) is an error, not a crash
    (
        "com.docker.wsl-distro-proxy.exe - Application Error\nThe application was unable to start correctly"
        " (0xc0000142).",
        "other",
    ),
    ("GPU process exited unexpectedly: exit_code=-1073741515", "other"),
    ("Starting get_model: LuongNam/Vistral-7B-Chat-AWQ\nWindows fatal exception: code 0xc0000139", "other"),
    ("Process exited with code 3221225477", "abrupt"),  # an access violation stays a crash
    # a file not found, in glibc's other languages
    (">>> Downloading AMD GPU dependencies...\nchmod: 无法访问'/usr/share/ollama': 没有那个文件或目录", "other"),
    # torch's internal assert, its line wrapped after "at"
    ("ERROR    Exception: tensor.device().type() == at::DeviceType::PrivateUse1 INTERNAL ASSERT FAILED at", "other"),
    # ColabFold's guess before any error ("Not Enough GPU memory?") is no finding: the error after it says what failed
    (
        "Could not predict 5AWL_1. Not Enough GPU memory? INTERNAL: RET_CHECK failure"
        " (external/xla/service/gpu/gpu_compiler.cc:627) dnn != nullptr",
        "other",
    ),
    (
        "Could not predict 5AWL_1. Not Enough GPU memory? RESOURCE_EXHAUSTED: Out of memory while trying to allocate"
        " 12.50GiB.",
        "vram",
    ),
    # IPEX's 4 GB block limit is no memory running out, unless the block would not fit the card at all
    (
        "RuntimeError: Current platform can NOT allocate memory block with size larger than 4GB! Tried to allocate"
        " 4.50 GiB (GPU  0; 15.56 GiB total capacity; 8.12 GiB already allocated; 8.30 GiB reserved in total by PyTorch)",
        "other",
    ),
    (
        "RuntimeError: Current platform can NOT allocate memory block with size larger than 4GB! Tried to allocate"
        " 40.00 GiB (GPU  0; 15.11 GiB total capacity; 10.03 GiB already allocated; 10.30 GiB reserved in total by"
        " PyTorch)",
        "vram",
    ),
    # TensorFlow's file it could not write for want of space: RESOURCE_EXHAUSTED with the file's path, the reason cut
    (
        "InternalError (see above for traceback): Error writing (tmp) checkpoint file: /ckpt/model.ckpt-6.tempstate97:"
        " Resource exhausted: /ckpt/model.ckpt-6.tempstate97",
        "disk",
    ),
    # a chained traceback: its oldest exception is the cause, unless only the line its block began with names what
    # ran out (TensorFlow's op above its internal _FallbackException) or only the last does
    (
        "W tensorflow/core/framework/op_kernel.cc:1753] OP_REQUIRES failed at conv_ops.cc:500 : Resource exhausted: OOM"
        " when allocating tensor with shape[32,64,256,256] and type float on /job:localhost/replica:0/task:0/device:GPU:0"
        ' by allocator GPU_0_bfc\nTraceback (most recent call last):\n  File "x.py", line 1, in f\n    y()\n'
        "tensorflow.python.eager.core._FallbackException: This function does not handle the case.\n\n"
        "During handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n"
        '  File "train.py", line 10, in <module>\n    model.fit(x)',
        "vram",
    ),
    (
        "Traceback (most recent call last):\n  File \"n.py\", line 3, in run\n    cache[key]\nKeyError: 'vae'\n\n"
        "During handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n"
        '  File "n.py", line 5, in run\n    load(key)\ntorch.OutOfMemoryError: CUDA out of memory. Tried to allocate'
        " 2.00 GiB. GPU 0 has a total capacity of 8.00 GiB of which 0 bytes is free.",
        "vram",
    ),
    (
        'Traceback (most recent call last):\n  File "n.py", line 3, in run\n    x.to("cuda")\ntorch.OutOfMemoryError:'
        " CUDA out of memory. Tried to allocate 2.00 GiB.\n\nDuring handling of the above exception, another exception"
        ' occurred:\n\nTraceback (most recent call last):\n  File "n.py", line 5, in run\n    log(e)\n'
        "AttributeError: 'NoneType' object has no attribute 'write'",
        "vram",
    ),
    # ... and that op's line alone, a loose line of the log (its words pass the cheap gate before the memory test)
    (
        "W tensorflow/core/framework/op_kernel.cc:1753] OP_REQUIRES failed at save_restore_v2_ops.cc:109 : Resource"
        " exhausted: /ckpt/model.ckpt-100_temp/part-00000-of-00001.data-00000-of-00001.tempstate123",
        "disk",
    ),
    # the shell's word a terminal put between progress bars redrawn in place, over the next bar's start
    (
        "Loading pipeline components...:  40%|████      | 2/5 [00:31<00:47, 15.9s/itKilledng checkpoint shards:  50%|"
        "█████     | 2/4 [00:05<00:05,  2.6s/it]",
        "system-ram",
    ),
    # no failure: earlyoom went on; git's one-line log of an update; Hugging Face datasets offline; comfy-cli's
    # one-shot commands back at the prompt; llama.cpp's fit of a model to its devices, which offloads layers; an app
    # that runs without xformers
    (
        "earlyoom v1.2\nCould not lock memory - continuing anyway: Cannot allocate memory\nmem avail: 3659 of 5875 MiB",
        None,
    ),
    (
        "4965c0e2 WAN: Fix cache VRAM leak on error (#10141)\n911331c0 sd: fix VAE tiled fallback VRAM leak (#10139)",
        None,
    ),
    ("Using the latest cached version of the dataset since org/set couldn't be found on the Hugging Face Hub", None),
    (
        "common_params_fit_impl: cannot meet free memory target of 1024 MiB, need to reduce device memory by 4443 MiB",
        None,
    ),
    (">> Using device_type mps\n>> xformers not installed\n>> NSFW checker is disabled", None),
    # a memory error's class named alone reads as that type (torch's the GPU's, Python's RAM); OpenCV's and Android's
    # classes of the same name are not torch's
    ("2024-11-22 21:58:39.196\tERROR\tsd\terrors\tProcessing: OutOfMemoryError", "vram"),
    ("2024-11-22 21:58:39.196\tERROR\tsd\terrors\tProcessing: MemoryError", "system-ram"),
    ("error: (-4) Failed to allocate 1610612736 bytes in function OutOfMemoryError", "system-ram"),
    (
        'Throwing OutOfMemoryError "Failed to allocate a 88 byte allocation with 0 free bytes" (recursive case)',
        "system-ram",
    ),
    ("ValueError: Unrecognized model in models/text_model. Should have a `model_type` key in its config.json", "other"),
    ("Unrecognized model in models/text_model. Should have a `model_type` key in its config.json", "other"),
    ("signal 11 (SIGSEGV), code 1 (SEGV_MAPERR), fault addr 0x0", "abrupt"),
    ("RuntimeError: You can't move a model that has some modules offloaded to cpu or disk.", "vram"),
    (
        "u@host:~/ComfyUI$ comfy node install-deps --deps=deps.json\nExecute from: /home/u/ComfyUI\nInstall: ['x']\n"
        "Dependency installation and activation complete.\n\nu@host:~/ComfyUI$ comfy node simple-show installed",
        None,
    ),
]


@pytest.mark.parametrize(("text", "kind"), PHRASES, ids=[row[0][:40] for row in PHRASES])
def test_each_phrase_reads_as_what_ran_out_or_none(text, kind):
    failure = explain_log(text)["failure"]
    assert (failure and failure["kind"]) == kind
