"""How a ComfyUI process ended without an error, from the line that says so: the portable build's
"press any key" (in the languages users post in), SIGKILL, a crash, a container's exit code 137, the program running
it that saw it end; what ended it for memory (the OOM killer, a memory cgroup, Windows' commit) is in
:mod:`memprobe.logs.kills`."""

from __future__ import annotations

import re

from .kills import CGROUP_KILL, COMMIT_EXHAUSTED, MEMORY_KILL, OOM_KILLED_FALSE, WINDOW_OOM, memory_kill

__all__ = [
    "COULD_NOT_START",
    "ending_kind",
    "killed_on_bar",
    "ending_hint",
    "backend_exit_kind",
    "ENDING_HINT",
    "CMD_PAUSE",
]

CMD_PAUSE = (
    "press any key to continue . . .",
    "请按任意键继续",
    "drücken sie eine beliebige taste",
    "appuyez sur une touche",
    "presione una tecla",
    "pulse cualquier tecla",
    "premere un tasto",
    "нажмите любую клавишу",
    "続行するには何かキーを押してください",
    "계속하려면 아무 키나 누르십시오",
)
"""Windows ``cmd``'s ``pause`` (lower-cased), in the languages users post in: no shell elsewhere has the command."""
_PAUSE = (
    "press any key to continue",
    *CMD_PAUSE[1:],
    "press a key to continue",
    "press key to continue",  # (as a user retyped it)
    "press enter to continue",
    "entrée pour continuer",  # "Cliquez sur Entrée pour continuer...", an install script's French prompt
    "comfyui has exited",  # install scripts' own banner after the server ended
)
_CRASH = (
    "segmentation fault",
    "panic. aborting.",  # Rust's abort: "thread caused non-unwinding panic. aborting.", "panicked while processing panic"
    "while panicking. aborting.",
    "core dumped",
    " dumped core.",  # systemd-coredump: "Process 9600 (python) of user 1000 dumped core." (coredumpctl info, the journal)
    "fatal python error",
    "windows fatal exception",
    "access violation",
    "access_violation",  # the status's own name (a launcher's crash analysis: "系统退出代码名称: ACCESS_VIOLATION")
    "3221225477",
    "-1073741819",
    "0xc0000005",
    "memory access fault by gpu",  # ROCm's HSA runtime: a GPU page fault (a driver's or kernel's fault), then abort
    "referenced memory at 0x",  # Windows' access-violation dialog ("The memory could not be read")
    "leaked semaphore objects to clean up at shutdown",  # Python's resource tracker, after its process died
    "terminated abnormally with signal",  # systemd-coredump in the journal
    "] page fault (",  # amdgpu's GPU page fault in the kernel log ("amdgpu: [gfxhub] page fault (src_id:...")
    "程序崩溃",  # a Chinese launcher's "the program crashed"
    "fatal : memory allocation failure",  # the CUDA runtime's "fatal : Memory allocation failure", then it aborts
    "fatal   : memory allocation failure",  # (a program's own "terminating: memory allocation failure" is memory's)
    # glibc's and the shells' names of the fatal signals, in the languages users post in
    "speicherzugriffsfehler",  # SIGSEGV, German
    "erreur de segmentation",
    "violación de segmento",
    "falha de segmentação",
    "errore di segmentazione",
    "段错误",
    "セグメンテーション違反",
    "ошибка сегментирования",
    "speicherabzug geschrieben",  # "(core dumped)" in German and Chinese, after any fatal signal's name
    "核心已转储",
    "аварийный останов",  # SIGABRT ("Aborted"), Russian
    "floating point exception",  # SIGFPE
    "bus error",
    "abort trap",  # macOS' SIGABRT
    "zsh: abort",
    "assertion `",  # a C assert() ("...: Assertion `err == hipSuccess' failed."), Metal's "failed assertion `": abort
    "l'assertion « ",  # ... in glibc's French and German ("librecad: lc_looputils.cpp :204 : ...: l'assertion « x » a
    "zusicherung »",  # échoué.", "... Zusicherung »x« nicht erfüllt.")
    "ggml_assert: ",  # ggml's assert (llama.cpp, whisper.cpp, ctransformers): it aborts the process
    "terminate called after throwing",  # C++'s std::terminate: an exception nobody caught, then abort
    "your session crashed",  # Colab, without the RAM's word
    "subsystem for linux instance has terminated",  # WSL's VM ended under ComfyUI
    "faulting application name: ",  # Windows' event log (Application Error 1000), for python.exe or the app running it
    "python.exe has stopped working",
    "python quit unexpectedly",  # macOS' crash dialog
    "r encountered a fatal error",  # RStudio's dialog for its R session's crash ("R Session Aborted")
    "daemon disappeared unexpectedly",  # Gradle: "Gradle build daemon disappeared unexpectedly (it may have been
    # killed or may have crashed)"
    "trace/breakpoint trap",  # SIGTRAP
    # glibc's heap checks, then abort
    "double free or corruption",
    "free(): invalid",
    "malloc(): corrupted",
    "corrupted size vs. prev_size",
    "corrupted double-linked list",
    "corrupted unsorted chunks",  # ("free(): corrupted unsorted chunks")
    "*** glibc detected ***",  # ... as glibc before 2.26 worded them ("*** glibc detected *** ./boinc: malloc(): ...")
    "buffer overflow detected ***",  # _FORTIFY_SOURCE's check ("*** buffer overflow detected ***: terminated")
    "process *crashed* and it's state is",  # JASP's debug information on its R engine ("**Engine # 1** process
    # *crashed* and it's state is *resuming*.")
    "exceptionhandler::generatedump",  # Breakpad writing a crash's minidump (Firefox, Thunderbird: "ExceptionHandler::
    # GenerateDump cloned child 12543")
    "malloc(): invalid",  # "malloc(): invalid size (unsorted)", "... invalid next size"
    "malloc_consolidate(): invalid",
    "munmap_chunk(): invalid",
    "realloc(): invalid",
    "stack smashing detected",
    # faulthandler's stack, which Python prints only at a fatal error (its first lines may be cut from a paste)
    "(most recent call first):",
    "exception code: 0x",  # a native crash handler's report (0x80000003: a breakpoint in a DLL)
    "failure.bucket",  # WinDbg's analysis of the crash dump
    "failure_bucket_id",
    "terminated by sigsegv",
    "terminated by signal sigsegv",  # fish: "... terminated by signal SIGSEGV (Address boundary error)"
    "terminated by signal sigabrt",
    "killed with signal sigsegv",  # Node's child_process, as fluent-ffmpeg reports it ("ffmpeg was killed with ...")
    "terminated by sigabrt",
    "vram is lost due to gpu reset",  # amdgpu's kernel log after a GPU hang (a MODE1 reset)
    "gpu reset begin",
    "analysis of the exit codes",  # a launcher's crash report in English ("System exit code name: STACK_BUFFER_OVERRUN")
    "failed with result 'core-dump'",  # systemd: the unit's process dumped core
    "status=11/segv",  # systemd: the unit's main process ended by SIGSEGV, SIGABRT, SIGBUS (not its "Failed with
    # result 'signal'" after the status, which follows any signal's, SIGKILL's too)
    "status=6/abrt",
    "status=7/bus",
    "]: segfault at ",  # the kernel's own line for a process's SIGSEGV ("python3[1234]: segfault at 0 ip ...")
    "nvrm: xid",  # NVIDIA's driver reporting a GPU fault in the kernel log (an MMU fault, a GPU off the bus)
    "commonunixcrashhandler: signal=",  # Unreal Engine's crash handler on Linux (CARLA: "Signal 11 caught.", then
    "engine crash handling finished",  # "... re-raising signal 11 for the default handler. Good bye.")
    "caught in c10/util/aborthandler.h",  # torch's handler on Windows: "Unhandled exception caught in ...", then abort
    "sigsegv (0xb) at pc=",  # the JVM's fatal error report ("#  SIGSEGV (0xb) at pc=0x00007f05ac3c07f2, pid=1, tid=652")
    "sigbus (0x7) at pc=",
)
_NT_CRASH = re.compile(
    r"(?:\b0xc0000(?!12d|017)[0-9a-f]{3}|\b322122(?!5773|5495)[56]\d{3}|-10737(?!41523|41801)\d{5})\b"
    r"|\bexception code:\s+c0000(?!12d|017|01d)[0-9a-f]{3}\b"  # Windows' problem report ("Exception Code:\tc0000005")
    r"|\bexit code: 184467440[67]\d{10}\b"  # the same, negative, read as 64 bits unsigned (LM Studio's dialog)
)
"""An NTSTATUS crash code as an exit code (0xC0000005 access violation, 0xC0000409 stack buffer overrun,
0xC0000374 heap corruption ...), in hex or as Windows prints it in decimal; the commit limit's 0xC000012D
and STATUS_NO_MEMORY's 0xC0000017 are memory failures (:mod:`memprobe.judging.failures`); the codes of a program that
could not start are errors (:data:`COULD_NOT_START`). A 64-bit reading of a
negative status (``Exit code: 18446744072635810000``) lost its low digits to a float: only its being one is read."""
COULD_NOT_START = (
    r"(?i:(?:\b0xc0000(?:135|139|142|01d)|\b322122(?:5781|5785|5794|5501)|-107374(?:1515|1511|1502|1795))\b|exit code: 9009$"
    r"|illegal (?:hardware )?instruction|\bsigill\b|status=4/ill\b|\btrap invalid opcode\b)"
)
"""The NTSTATUS codes of a program that could not start, in hex and in decimal (unsigned, signed): a DLL not found
(0xC0000135), an entry point not found in one (0xC0000139), a DLL that failed to initialise (0xC0000142); and cmd's
9009 for a command it did not find, as AUTOMATIC1111's launchers report it ("Couldn't launch python" / "exit code:
9009"). And an instruction the CPU does not have (SIGILL: "Illegal instruction (core dumped)", zsh's "illegal
hardware instruction", the kernel's "trap invalid opcode", Windows' 0xC000001D): a build for another CPU (AVX on a
Celeron, a Pentium, an old Xeon, a VM that hides it). An error, not a crash: the program could not run there (a
pattern's text, for the error lines' pattern to hold too)."""
_COULD_NOT_START = re.compile(COULD_NOT_START)
_FATAL_CHECK = re.compile(r"^\[f [^\]]*:\d+\]")
_NATIVE_ASSERT = re.compile(r"assertion failed: .*, file .+, line \d+")
"""A native library's own assert macro (nunchaku's ``assertion failed: false, file ...dispatch_utils.h, line 30``):
it aborts the process."""
"""A native library's fatal check (glog/c10's ``[F path:line] message``): it aborts the process."""
_KILLED_WORDS = ("getötet", "processus arrêté", "terminado (killed)", "已杀死", "強制終了", "убито", "kilőve")
"""The shell's "Killed" (SIGKILL's name) in glibc's German, French, Spanish, Chinese, Japanese, Russian and Hungarian
catalogs (Portuguese's "Morto" only as a line of its own: :data:`_KILLED_LINES`, as the signal's name a runner printed
alone)."""
_BAR_END = frozenset("0123456789]|%).…\\/-")
"""How a progress line ends (a figure, a bar's bracket or edge, a spinner's frame: conda's "Solving environment: \\
Killed"), or a sentence a program left without its line break ("gsplat: Setting up CUDA (This may take a few minutes
the first time)Killed")."""
_PERCENT_STEP = re.compile(r"^\s*\d{1,3}% [a-z]")
"""A build's progress line, its share done and then its step (webpack's "28% building modules 154/275 modules ...",
"94% asset optimization"), which the shell's "Killed" may end in the middle of a word."""
_KILLED_OVER_BAR = re.compile(r"(?<!\S)killed(?:[=#]{2,}|[=#]*>| *[.#=]{3,}\])")
"""The shell's "Killed" at a line's start over a progress bar's rest (``Killed==========>``; npm's gauge: ``Killed
.....] \\ extract:keystone: sill doParallel extract 709``): the bar was drawn with carriage returns, and the shell's
word, written from the line's start, covers its head (after a space where a page flattened the paste into one line)."""
_KILLED_LINES = ("morto", "sigkill")
_KILLED_JOB = re.compile(rf"(?:^\[\d+\]\s*[+-]?|\d)\s+(?:{'|'.join(map(re.escape, _KILLED_WORDS))}|morto|ucciso)\s")
"""A shell's report of its child's SIGKILL in another language, the child's command after it (``./webui.sh: Zeile
255: 12345 Getötet   "${python_cmd}" ...``, ``[1]+  已杀死   nohup python ...``): the number before the word."""
_BACKEND_EXIT = (
    "failed. restarting per configuration",  # SwarmUI: "Self-Start ComfyUI-0 on port 7821 failed. Restarting ..."
    "autorestart ignored as this was an initial launch failure",  # SwarmUI, when its first start of ComfyUI failed
    "unexpectedly exited",  # SwarmUI: "Self-Start ComfyUI-0 on port 7821 unexpectedly exited (if something failed, ..."
    "server process terminated with code",  # Krita AI Diffusion's managed server ("... with code -7": a signal's)
    "comfyui exited before it became ready",  # a pipeline that launches ComfyUI ("... Exit code: 1")
    "comfyui server process exited unexpectedly",  # Replicate's cog-comfyui (a RuntimeError it raises)
    "] worker process exited",  # ComfyUI-Distributed: "[Distributed] Worker process exited" (a worker's ComfyUI)
    "stub process is unhealthy",  # Triton's Python backend: the process running the model's code died ("Stub process
    "stub process is not healthy",  # is unhealthy and it will be restarted"; a client's error: "... is not healthy.")
    "the process exited too early",  # CircleCI's ("The build failed because the process exited too early. This
    # probably means the system ran out of memory or someone called `kill -9` on the process."): a guess, not a finding
    "exited (exit code ",  # the Desktop app's "ComfyUI process exited (exit code 1)", an MCP server's "... launched
    # EXITED (exit code 1)"
    "程序异常退出，退出代码为",  # the Aki launcher: "[程序异常退出，退出代码为 3 (0x00000003)]" (ended abnormally)
    "kernelrestarter: restarting kernel",  # Jupyter's (Colab's runtime log): the notebook's kernel process died
    "appears to have died. it will restart",  # ... as Jupyter's page says it ("The kernel appears to have died. ...")
    "the kernel crashed while executing code",  # VS Code's Jupyter ("... in the current cell or a previous cell")
    "canceled future for execute_request message",  # ... its line above that one
    "as kernel process died",  # ... its Jupyter log ("Disposing session as kernel process died ExitCode: undefined")
    "driver has stopped unexpectedly and is restarting",  # Databricks: "The spark driver has stopped unexpectedly ..."
    "exits with return code = ",  # DeepSpeed's launcher on a rank it started ("... exits with return code = 1")
    "space failed to start. exit code",  # Hugging Face Spaces' page on its container ("Space failed to start. Exit code: 1",
    "exit code: ?. reason:",  # "Exit code: ?. Reason: ", a build's "Job failed with exit code: 143")
    "job failed with exit code",
    "server seems to have crashed",  # Baseten's Truss: "Inference server seems to have crashed, restarting"
    "server crashed for some reason",  # DeepSpeed-MII's client: "RuntimeError: server crashed for some reason, ..."
    "sigkill_handler] killing subprocess",  # DeepSpeed's launcher ending the ranks after one of them died
    "server terminated abruptly (error code:",  # Bazel's client: its server (a JVM) died ("... error code: 14, error
    # message: 'Socket closed'")
    "terminated for an unknown reason -- likely it has been terminated by the external system",  # Nextflow on a task
    # its executor (Slurm, a cloud batch) ended without an exit status
)
"""The program that runs ComfyUI as its backend saw its process end, without saying why."""
_CTRL_C = (
    "terminate batch job (y/n)",
    "batchvorgang abbrechen (j/n)",
    "terminer le programme de commandes (o/n)",
    "terminar el trabajo por lotes (s/n)",
    "终止批处理操作吗",
    "バッチ ジョブを終了しますか",
    "завершить выполнение пакетного файла",
    "stopped server",  # ComfyUI's own line once Ctrl+C ended it (main.py)
)
"""cmd's question after Ctrl+C stopped a batch file (the portable build's ``run_nvidia_gpu.bat``), in the languages
users post in; the console's own echo is ``^C``."""
_MAKE_137 = re.compile(r"make(?:\[\d+\])?: \*\*\* .*error 137$")
_SIGKILL_EXIT = re.compile(
    r"\b(?:exit(?:ed)?|return(?:ed)?|finished|terminated|failed|died)\b"
    r"[^.;]{0,24}?\b(?:code|status|exit value)\b\s*[:=]?\s*\(?(?:137|-9)\b"  # (Gradle's "... non-zero exit value 137")
    r"|\b(?:killed|terminated)(?: by| with)? signal:? (?:9|sigkill|killed)\b"
    r"|: signal: killed\b"  # Go's os/exec (Ollama's runner: "llama runner process has terminated: signal: killed",
    # Livepeer's "Error from ffmpeg: signal: killed", go build's ".../pkg/tool/linux_amd64/compile: signal: killed")
    r"|exitfailure \(-9\)"  # Haskell's stack on a build step ("Process exited with code: ExitFailure (-9) (THIS MAY
    # INDICATE OUT OF MEMORY)")
    r"|\bexited \((?:137|-9)\)"  # docker ps's status column: "Exited (137) 3 minutes ago"
    r"|\bexitcode: (?:137|-9)\b"  # a Kubernetes status' "exitCode: 137" (its YAML, lower-cased)
    r"|\bexitcode\"?\s*:\s*137\b"  # docker inspect's state ("ExitCode": 137)
    r"|^=\s+exit code: 9$"  # MPICH's "BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES ... EXIT CODE: 9"
    r"|\bexited on signal 9 \(killed\)"  # Open MPI's mpirun: "... process rank 7 with PID 0 on node X exited on ..."
    r"|\bhas been signaled with signal \"?9\b"  # Symfony's Process (Nextcloud's apps): "... signaled with signal "9"."
    r"|\bsignal:? some\(9\)"  # Rust's ExitStatus as its Debug prints it ("Command exited with signal: Some(9)")
    r"|\bsignaled to shutdown with signal 9\b"  # text-generation-inference's launcher on a shard ("Shard process was ...")
    r"|\bsignal 9 \(sigkill\) received by pid\b"  # torch.distributed.elastic's root cause of a rank's end ("traceback :
    # Signal 9 (SIGKILL) received by PID 11408", under "exitcode  : -9")
    r"|\bwas sent sigkill\b"  # gunicorn's arbiter: "Worker (pid:7) was sent SIGKILL! Perhaps out of memory?"
    r"|\bterminated due to signal 9\b"  # ninja: "ninja: job terminated due to signal 9: cd /home/build && ..."
    r"|\bfailed due to signal 9\b"  # the Swift driver: "error: compile command failed due to signal 9 (use -v to see ...)"
    r"|\bchild returned 137\b"  # OpenDroneMap's stage runner: "Exception: Child returned 137"
    r"|\bcommand failed with signal \"sigkill\""  # Yarn on its script's child: "error Command failed with signal "SIGKILL"."
    r"|\bchild killed: kill signal\b"  # Tcl's exec (Yosys' ABC under OpenLane: "child killed: kill signal")
    r"|\bthrew signal 9\b"  # Verilator: "%Error: Verilator threw signal 9"
    r"|\bcode=killed, signal=kill\b"  # systemd's status of the unit's process ("Main PID: 513 (code=killed, signal=KILL)")
    r"|\breturned a non-zero code: 137\b"  # docker build's step
    r"|\bdied with <signals\.sigkill: 9>"  # Python's CalledProcessError ("Command '['tesseract', ...]' died with ...")
    r"|\(signal: 9, sigkill: kill\)"  # Rust's ExitStatus (Cargo: "process didn't exit successfully: `rustc ...`
    # (signal: 9, SIGKILL: kill)")
)
"""An exit status of SIGKILL however a launcher words it (docker's ``exited with code 137``, ``Exit code: 137``,
``exit status 137``, ``exited with code -9``, fish's ``terminated by signal SIGKILL``, ``terminated by signal 9``)."""
_FATAL_SIGNALS = "(?:4|6|7|8|11)"
"""The numbers of the signals that crash a process: SIGILL, SIGABRT, SIGBUS, SIGFPE, SIGSEGV."""
_CRASH_EXIT = re.compile(
    r"\bexit(?:ed)?(?: with)? (?:code|status):? ?\(?13[2-69]\b"
    r"|\bsignaled to shutdown with signal (?:4|5|6|7|8|11)\b"  # text-generation-inference's shard
    r"|\bexited with code null and signal sig(?:ill|trap|abrt|bus|fpe|segv)\b"  # Node's child_process (Electron apps')
    r"|^sig(?:segv|bus)\s*\((?:segv|bus)_[a-z]+\)|\(sig(?:segv|bus|ill|fpe|abrt)\), code -?\d+"  # Android's
    # tombstone: the signal and its cause ("SIGSEGV(SEGV_MAPERR)", "signal 11 (SIGSEGV), code 1 (SEGV_MAPERR)")
    r"|\bwas sent (?:code 13[3-69]|sig(?:segv|abrt|bus|fpe))!"  # gunicorn's arbiter on a worker a signal ended
    # ("Worker (pid:258) was sent code 139!", "... was sent SIGSEGV!"; its SIGKILL's words are a kill's)
    r"|^thread \d+ crashed::"  # macOS' crash report, its crashed thread's stack ("Thread 0 Crashed:: Dispatch queue: ...")
    rf"|signal {_FATAL_SIGNALS} \(sig[a-z]+\) received by pid\b"  # torch.distributed.elastic's root cause of a
    # rank's end ("traceback : Signal 11 (SIGSEGV) received by PID 3304209", under "exitcode  : -11")
    rf"|finish process received signal {_FATAL_SIGNALS}\b"  # s6-overlay's finish script (Home Assistant's
    # container: "INFO: Home Assistant Core finish process received signal 11")
    r"|\bcode=(?:killed|dumped), signal=(?:segv|abrt|bus|ill|fpe)\b"  # systemd's status ("(code=dumped, signal=SEGV)")
    rf"|\bkilled by signal {_FATAL_SIGNALS}\b"  # uWSGI's master ("DAMN ! worker 1 (pid: 5541) died, killed by signal 7")
    rf"|\bdied\b[^.;]{{0,24}}?\bcode:? -{_FATAL_SIGNALS}\b"  # roslaunch ("[move_group-3] process has died [pid
    # 52879, exit code -11, cmd ...]")
    rf"|\bexit code: -{_FATAL_SIGNALS}$"  # pip's box for a build step a signal ended ("│ exit code: -7", SIGBUS):
    # Python's subprocess gives a signal's number negated
)
"""An exit status of a fatal signal, 128 and its number (docker's ``exited with code 139``, supervisord's ``exit status
134``, LM Studio's ``(Exit code: 133)``): SIGILL, SIGTRAP, SIGABRT, SIGBUS, SIGFPE, SIGSEGV; or the signal as a crash's
own report names it (an Android tombstone's, macOS' crashed thread, pip's)."""
_CRASH_SIGNAL_CODE = re.compile(rf"\bcode\s*=?\s*-{_FATAL_SIGNALS}\b")
"""A child's exit code as Python's ``subprocess`` gives a signal's (SIGILL, SIGABRT, SIGBUS, SIGFPE, SIGSEGV), also as a
launcher words it (DeepSpeed's "exits with return code = -11")."""
_SUPERVISED_SIGNAL = re.compile(
    r"(?:exited with code \d+ \(by signal |\bworker process \d+ exited on signal |\bcrashed with signal: )(\d+)"
)
"""s6-overlay's supervisor in a container on a service's end by a signal (``Service exited with code 256 (by signal
4)``), nginx's master on a worker (``worker process 15188 exited on signal 9``), Xournal++'s handler (``Crashed with
signal: 9``): SIGKILL's 9 is a kill, SIGILL's 4, SIGABRT's 6, SIGBUS' 7, SIGFPE's 8 and SIGSEGV's 11 a crash."""
_FATAL_SIGNAL = re.compile(r"\bfatal signal (?:4|6|7|8|11)\b")
"""A crash handler's report of the signal that ends the process (Android's ``Fatal signal 11 (SIGSEGV), code 1``, VCV
Rack's ``Fatal signal 11. Stack trace:``): SIGILL, SIGABRT, SIGBUS, SIGFPE, SIGSEGV."""
_NATIVE_FRAME = re.compile(
    r"python3\d*\.dll(?:\(0x[0-9a-f]+\) \+ 0x[0-9a-f]+ byte\(s\)|\+0x[0-9a-f]+\))"
    r"|^[\w.-]+\.dll \+ 0x[0-9a-f]+\b|^[0-9a-f]{16}(?:[0-9a-f]{16})? [\w.-]+\.dll!"
)
"""A line of the native stack a crash handler prints (Windows' for python3x.dll; another's ``torch_hip.dll + 0x2188A70``;
c10's ``00007FFA79B2A9BC00007FFA79B19EB0 torch_python.dll!initModule [...]``): the process crashed."""
_KERNEL_SEGFAULT = re.compile(r"\berror \d+ in [\w.+-]+\.so\b")
"""The end of the kernel's line for a process's SIGSEGV (``... segfault at 0 ip ... error 4 in libhsa-runtime64.so.1``)."""
_SHELL_JOB = re.compile(
    r"line \d+:\s+\d+\s+killed|(?:^|(?<=\s))(?:zsh|bash|sh): killed\s|(?:^|(?<=[\s.]))\[\d+\]\s*[+-]?\s+(?:\d+\s+)?killed\s"
    r"|^\d+ killed {2,}\S"
)
"""A shell's report of its child's SIGKILL: a script's (``entrypoint.sh: line 63:  6544 Killed``, or its process
number alone: ``70361 Killed                  openvino2tensorflow ...``), zsh's (``zsh: killed     mflux-generate
...``), a job's (``[1]+  Killed    python train.py``, zsh's with its process number: ``[1]    22539 killed     sudo
pip3 install spacy``, also after the progress line it cut: ``Populating index cache ...[1]    32713 killed     stack
build``)."""
_KILLED_ANY = ("killed", *_KILLED_WORDS)
_KILLED_AMID_BARS = re.compile(
    rf"(?:s/it|it/s|\d)\]?(?:killed|{'|'.join(map(re.escape, _KILLED_WORDS))})[a-z]+ .*\d%\|"
)
"""The shell's word where a terminal put it, in a paste of progress bars redrawn in place: right after the bar it cut,
over the start of the next one (``... 16.52s/itKilledng checkpoint shards:  78%|...``, ``69.46s/it]已杀死g checkpoint
shards:  50%|...``)."""
_UNREACHABLE = (
    "err_connection_refused",
    "refused to connect",
    ":8188) not reachable after",
    "failed to connect to server at http://127.0.0.1:",
    "typeerror: failed to fetch",  # the browser's fetch() when nothing answered (its frontend's toast, chaiNNer's)
)
"""The browser, or a proxy or a serverless worker in front of ComfyUI (RunPod's worker-comfyui: "ComfyUI server
(127.0.0.1:8188) not reachable after multiple retries", its older "Failed to connect to server at
http://127.0.0.1:8188/ after 500 attempts"), found nothing listening: the server had ended."""
_RECONNECTING = ("reconnecting",)
"""The frontend's toast when its server is gone, as a line of its own."""
_STUCK_RECONNECTING = re.compile(r"\b(?:stuck|hangs?|hanging|keeps?|stays?)\b.{0,20}\breconnecting\b")
_SHELL_PROMPT = re.compile(
    r"^(?:\([\w.-]+\) )?(?:ps )?[a-z]:\\[^<>|\"]*>$|^[\w.-]+@[\w.-]+:[^$#]*[$#]$"
    r"|^(?!.*\\lib\\)[a-z]:\\[^\s<>|\"]*$"  # a cmd prompt cut before its ">" (a path alone on the last line; not
    # one into a Python's "\lib\", a warning's file cut where the paste ends: "C:\...\envs\kohya\lib\s")
)
"""A shell's prompt alone on a line (``(venv) C:\\ComfyUI>``, ``PS C:\\...>``, ``user@host:~/ComfyUI$``): the
process that held the console returned to it."""
SHELL_COMMAND = re.compile(r"^(?:\([\w.-]+\) )?(?:ps )?[a-z]:\\[^<>|\"]*> *(?=\S)|^[\w.-]+@[\w.-]+:[^$#]*[$#] +(?=\S)")
"""A shell's prompt with a command typed after it (lower-cased): after a process's output, that process had
returned to the shell."""


_HINT_WORDS = (
    r"pause|key|taste|touche|tecla|tasto|клавиш|キー|키|kill|oom|out of memory|exit|fault|dumped|"
    r"fatal|violation|c0000|322122|107374|resource-exhaustion|virtual memory|semaphore|memcg|refused|"
    r"continu|abnormally|assertion failed|崩溃|\.dll[+(]0x|limit exceeded|call first|(?:error|code|status):? 137|free swap"
    r"|out_of_me"  # Slurm's sacct: "OUT_OF_ME+" (its state column, cut)
)
_HINT_SUBSTRINGS = (
    "/n)",
    "signal 9",
    "memory limit of",
    "badness ",
    "(segv_",
    "(bus_",
    "(sig",
    "memory: usage ",
    "was sent ",
)
"""Tested apart, with ``in`` (:func:`ending_hint`): each more alternative slows the pattern by a tenth on every
line (``/n)``: cmd's question after Ctrl+C, ``(Y/N)?`` in English, ``(J/N)?``, ``(O/N)?``, ``(S/N)?`` in German,
French, Spanish; ``(sig``, ``(segv_``, ``(bus_``: an Android tombstone's signal and its cause)."""
_HINT_TEXTS = [
    t
    for t in (
        *_PAUSE,
        *_CTRL_C,
        *_BACKEND_EXIT,
        *_CRASH,
        *MEMORY_KILL,
        *CGROUP_KILL,
        *COMMIT_EXHAUSTED,
        *WINDOW_OOM,
        *_UNREACHABLE,
        *_RECONNECTING,
        *_KILLED_WORDS,
        *_KILLED_LINES,
    )
    if not re.search(_HINT_WORDS, t) and not any(h in t for h in _HINT_SUBSTRINGS)
]
ENDING_HINT = re.compile("|".join([_HINT_WORDS, *map(re.escape, (*_HINT_TEXTS, *_HINT_SUBSTRINGS))]))
"""A cheap test of a lower-cased line before :func:`ending_kind`: its words, and every text of its tables
they miss (:func:`ending_hint` adds what is tested at the line's ends)."""
_ASCII_HINT = re.compile(
    "|".join([*(w for w in _HINT_WORDS.split("|") if w.isascii()), *(re.escape(t) for t in _HINT_TEXTS if t.isascii())])
)
"""The same for an ASCII line: alternatives in another script defeat the engine's search by first
character, which makes the pattern three times slower on the lines that are most of a log."""


def ending_hint(low: str) -> bool:
    """Whether a lower-cased line may say how the process ended (a shell's prompt, a fatal check, or
    :data:`ENDING_HINT`'s words and texts): the cheap test before :func:`ending_kind`."""
    return (
        low.endswith((">", "$", "#"))
        or low.startswith(("[f ", ":0:", "^c"))
        or (low[1:3] == ":\\" and " " not in low)
        or (_ASCII_HINT if low.isascii() else ENDING_HINT).search(low) is not None
        or "/n)" in low
        or "signal 9" in low
        or "with signal " in low  # text-generation-inference's "... signaled to shutdown with signal 4"
        or "with signal: " in low  # Xournal++'s "Crashed with signal: 9"
        or 'signal "9"' in low
        or "memory limit of" in low
        or "badness " in low  # earlyoom's own line: "sending SIGTERM to process 42 uid 0 "python": badness 900"
        or (".dll" in low and ("+ 0x" in low or ".dll!" in low))  # a native stack's frame
        or (".so" in low and " in " in low and "error " in low)  # the kernel's segfault line, its start cut
        or "(sig" in low  # an Android tombstone's signal ("signal 11 (SIGSEGV), code 1 (SEGV_MAPERR)")
        or "(segv_" in low
        or "(bus_" in low
        or " crashed::" in low  # macOS' crash report: "Thread 0 Crashed:: ..."
        or "memory: usage " in low  # the kernel's report of a memory cgroup at its OOM
        or "was sent " in low  # gunicorn's arbiter on a worker a signal ended
    )


def _runtime_fatal(low: str) -> bool:
    """ROCm's runtime (rocclr, or HIP's in ``clr/hipamd``) printing an error at level 0 (``:0:...rocclr...device.cpp:379
    : 1100 us:  Memobj map does not have ptr``, ``:0:.../clr/hipamd/src/hip_global.cpp:158 : ... us: Module not
    initialized``): it prints this just before its ``guarantee`` aborts the process."""
    return low.startswith(":0:") and " us:" in low and ("rocclr" in low or "/clr/" in low)


def backend_exit_kind(low: str) -> str:
    """What the program running ComfyUI says of its end (``low``: its line lower-cased): ``killed`` for SIGKILL's
    code, ``crash`` for a crash's, else ``backend-exit`` (it said nothing of why)."""
    if _SIGKILL_EXIT.search(low):
        return "killed"
    return "crash" if _NT_CRASH.search(low) or _CRASH_SIGNAL_CODE.search(low) else "backend-exit"


def killed_on_bar(s: str) -> bool:
    """The shell's word on a progress bar's line: at its end (the bar it cut), or amid bars a terminal redrew in
    place (:data:`_KILLED_AMID_BARS`)."""
    if "Killed" in s[-12:]:
        return True
    low = s.lower()
    return any(w in low for w in _KILLED_ANY) and _KILLED_AMID_BARS.search(low) is not None


def ending_kind(low: str, s: str) -> str | None:
    """``pause``, ``stopped`` (Ctrl+C's echo), ``backend-exit`` (the program running ComfyUI saw it end),
    ``cgroup-kill``, ``memory-kill``, ``commit-exhausted``, ``window-oom`` (the window ComfyUI runs in), ``killed``,
    ``crash``, ``exited`` (the shell's prompt came back), ``unreachable`` (nothing listens on ComfyUI's port) or
    ``None`` for a line (``low``: the line lower-cased; ``s``: as written)."""
    if low[:2] == "**" and low[2:3] != "*":  # a Markdown emphasis a poster gave the kernel's words ("**Out of memory**:
        low = low.replace("**", "")  # Killed process 3939"; not glibc's "*** buffer overflow detected ***")
    if low.endswith(">pause") or any(p in low for p in _PAUSE):
        return "pause"
    if any(p in low for p in _BACKEND_EXIT):
        return backend_exit_kind(low)
    if (low.strip().rstrip("^c") == "" and "^c" in low) or any(p in low for p in _CTRL_C):
        return "stopped"
    if OOM_KILLED_FALSE.search(low):
        return None  # docker's state says its OOM killer did not end the container (read by the reader, not an end)
    if (kill := memory_kill(low)) is not None:
        return kill
    if s.endswith("Killed") and (
        s[-7:-6] in _BAR_END or (s[-7:-6] == " " and s[-8:-7] in _BAR_END) or _PERCENT_STEP.match(s)
    ):
        return "killed"  # the shell's word on a progress line it cut ("... - loss: 2.1371Killed", a bar's "... 3/5
        # [00:01<00:02]Killed", webpack's step "94% asset optimizationKilled"), or after a sentence a flattened paste
        # ran it into ("Parsing from onnx file... Killed")
    if "killed" in low and _KILLED_OVER_BAR.search(low):
        return "killed"  # the shell's word written over the progress bar it cut, the bar's rest after it (wkhtmltopdf:
        # "Killed=====================>          ] Page 3 of 7")
    if re.search(r"(?:^|\s)killed(?::? 9)?(?:[\s.!;]|$)", low) and (
        (len(s) < 24 and "=" not in s) or "python" in low or "main.py" in low or _SHELL_JOB.search(low)
    ):  # (not a job's counter: Hadoop's "Killed map tasks=1")
        return "killed"
    if (
        _SIGKILL_EXIT.search(low) or "status=9/kill" in low or "terminated by sigkill" in low
    ):  # systemd's; supervisord's
        return "killed"
    if _MAKE_137.match(low):  # make ran it (a container's `docker run`; a sub-make's "make[2]: *** [exec] Error 137")
        return "killed"
    if (m := _SUPERVISED_SIGNAL.search(low)) and m.group(1) in ("9", "4", "6", "7", "8", "11"):
        return "killed" if m.group(1) == "9" else "crash"
    if (
        (any(k in low for k in _KILLED_WORDS) and len(s) < 80)
        or low.strip() in _KILLED_LINES
        or _KILLED_JOB.search(low)
    ):
        return "killed"
    if "thread: [" in low and "assertion `" in low:  # a CUDA kernel's device-side assert: an error, not an abort
        return None
    if "cmd('" in low and "failed due to" in low:
        return None  # GitPython's error for a git (a child process) that failed, crashed or not: ComfyUI lived on
    if "exception: access violation" in low and "fatal exception" not in low:
        return None  # ctypes' words for a fault it caught in the DLL it called: Python lived to report it
    if _COULD_NOT_START.search(low):
        return None  # ("Windows fatal exception: code 0xc0000139"): it could not start, an error line (not a crash)
    if (
        any(p in low for p in _CRASH)
        or _NATIVE_FRAME.search(low)
        or _KERNEL_SEGFAULT.search(low)
        or _NT_CRASH.search(low)
        or _CRASH_EXIT.search(low)
        or _FATAL_CHECK.match(low)
        or _NATIVE_ASSERT.search(low)
        or _FATAL_SIGNAL.search(low)
        or _runtime_fatal(low)
    ):
        return "crash"
    if any(p in low for p in _UNREACHABLE) or (
        "connection refused" in low and ("127.0.0.1" in low or "localhost" in low)
    ):
        return "unreachable"
    if len(low) < 200 and _SHELL_PROMPT.match(low.strip()):
        return "exited"
    if low.strip().rstrip(".…") in _RECONNECTING or (len(low) < 80 and _STUCK_RECONNECTING.search(low)):
        return "unreachable"  # the frontend's word, pasted alone or told ("Stuck on Reconnecting after Run")
    return None
