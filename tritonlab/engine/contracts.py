"""Contract checks that verify runs around the learner's wrapper: facts, never sentences.

Why a module of its own: values that match torch are not the whole contract a lesson teaches. A wrapper may not
take the tile sizes the lab would like to vary (the official tutorials' matmul takes none), a sweep knob may never
reach the launch, an output may come back in the wrong layout. Each check here returns fact dicts
`{"kind": ..., <facts>, "message": <English, for old clients>}`; the UI makes the sentences.
"""

from __future__ import annotations

import inspect


def split_kwargs(wrapper, kwargs: dict) -> tuple[dict, list[str]]:
    """(the variant's keywords the wrapper accepts, the names it does not take).

    A wrapper with no tile keywords is verified with its own tiles (a note, not a failure): passing them anyway
    would fail a correct file with "unexpected keyword argument 'BLOCK_M'"."""
    if not kwargs:
        return {}, []
    try:
        params = inspect.signature(wrapper).parameters.values()
    except (TypeError, ValueError):
        return dict(kwargs), []
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return dict(kwargs), []
    names = {p.name for p in params if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                                   inspect.Parameter.KEYWORD_ONLY)}
    accepted = {k: v for k, v in kwargs.items() if k in names}
    return accepted, [k for k in kwargs if k not in names]


def tiles_not_varied(dropped: list[str], entry: str) -> dict:
    return {"kind": "tiles-not-varied", "names": list(dropped), "entry": entry,
            "message": f"{entry}() takes no {', '.join(dropped)} argument, so this case ran with the tile sizes "
                       "your wrapper chooses (the lab could not vary them)"}
