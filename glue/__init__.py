"""The ComfyUI glue: the only code that imports ComfyUI.

=====================  =============================================================
``runtime``            start-up and wiring: sensors, tracker, sampler, ledger, routes
``execution_hooks``    ComfyUI's calling convention for running prompts and nodes
``environment``        reading ComfyUI's folders, versions, install type and device
``models``             reading ComfyUI's model manager: which models, where, how much
=====================  =============================================================

Everything they wire together lives in the pure core (``memprobe/``); node classes live in
``nodes/``, the HTTP routes and websocket events in ``web/``.
"""
