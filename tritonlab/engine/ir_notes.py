"""Hopper data-movement instructions in one compiler stage's text (lesson 13: "is my kernel really using
TMA?").

Counts, per stage, the instructions that show TMA tile copies, device-side descriptor creation, warp-group MMA
and the mbarriers that synchronise them. Facts only (counts per kind); tritonlab.present.ir says what each one
is. No torch, no triton: plain text in, a dict out.
"""

from __future__ import annotations

import re

# kind -> stage -> pattern. A kind absent for a stage is not counted there (not "zero").
_PATTERNS: dict[str, dict[str, str]] = {
    "tma_load": {
        "ttgir": r"ttng\.async_tma_copy_global_to_local",
        "ptx": r"cp\.async\.bulk\.tensor\.\w+\.shared::\w+\.global",
        "sass": r"\bUTMALDG\b",
    },
    "tma_store": {
        "ttgir": r"ttng\.async_tma_copy_local_to_global",
        "ptx": r"cp\.async\.bulk\.tensor\.\w+\.global\.shared::",
        "sass": r"\bUTMASTG\b",
    },
    "descriptor_create": {
        "ttgir": r"ttng\.tensormap_create",
        "ptx": r"tensormap\.replace",
    },
    "wgmma": {
        "ttgir": r"ttng\.warp_group_dot\b",
        "ptx": r"wgmma\.mma_async",
        "sass": r"\bHGMMA\b",
    },
    "mbarrier": {
        "ttgir": r"ttng\.(?:init_barrier|barrier_expect|wait_barrier)",
        "ptx": r"mbarrier\.",
        "sass": r"\bSYNCS\b",
    },
}


def hopper_instructions(text: str, stage: str) -> dict[str, int] | None:
    """Count of each kind this stage can show, or None for a stage where the counts mean nothing (ttir, llir:
    before the NVIDIA-specific lowering)."""
    if stage not in ("ttgir", "ptx", "sass"):
        return None
    counts = {}
    for kind, by_stage in _PATTERNS.items():
        pattern = by_stage.get(stage)
        if pattern is not None:
            counts[kind] = len(re.findall(pattern, text or ""))
    return counts
