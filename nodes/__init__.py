"""Memory Probe's V3 nodes."""
