"""Memory Probe's pure core: sensors, sampler, tracker, ledger, stages, advice, report, CLI.

Nothing in this package imports ComfyUI, so it runs and is tested anywhere.
"""

__version__ = "0.1.0"
__all__ = ["__version__"]
