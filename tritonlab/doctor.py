"""`tritonlab doctor` and the in-app environment check: the UI side's view (version, lessons) plus the
worker's.

Returns a plain report dict (today's `--json` keys); each check carries a `cause` and facts that
`tritonlab.present.doctor` words in either language.
"""

from __future__ import annotations

import sys
from typing import Any


def run_doctor(lab=None, backend: str = "auto", timeout: float = 180.0) -> dict:
    """`lab`: the Lab to ask (the app passes its own, so no extra worker is started); without one, a Lab is
    made for this check and closed after it."""
    from tritonlab import __version__
    from tritonlab.content.loader import load_catalog
    from tritonlab.engine.lab import Lab

    checks: list[dict[str, Any]] = [{"name": "tritonlab", "status": "ok", "value": __version__}]
    catalog = load_catalog()
    lessons_ok = bool(catalog.lessons) and not catalog.problems
    checks.append(
        {
            "name": "lessons",
            "status": "ok" if lessons_ok else ("warn" if catalog.lessons else "fail"),
            "value": f"{len(catalog.lessons)} lessons, {len(catalog.all_exercises())} exercises"
            + (
                f"; {len(catalog.problems)} problems: " + "; ".join(str(p) for p in catalog.problems[:3])
                if catalog.problems
                else ""
            ),
            "fix": "reinstall tritonlab (pip install .)" if not catalog.lessons else None,
            "cause": "lessons",
            "lessons": len(catalog.lessons),
            "exercises": len(catalog.all_exercises()),
            "problems": len(catalog.problems),
        }
    )
    own = lab is None
    lab = Lab(backend=backend) if own else lab
    try:
        result = lab.doctor(timeout=timeout).to_json()
    finally:
        if own:
            lab.close()
    if result.get("error"):
        err = result["error"]
        checks.append(
            {
                "name": "python",
                "status": "ok" if sys.version_info >= (3, 10) else "fail",
                "value": sys.version.split()[0],
                "cause": "python-version",
            }
        )
        checks.append(
            {
                "name": "worker",
                "status": "fail",
                "value": err.get("message"),
                "fix": "pip install torch triton 'numpy<2.4' — the worker process must import both",
                "cause": "worker-failed",
                "exception": err.get("exception") or err.get("message"),
            }
        )
        if err.get("stderr_tail"):
            checks.append({"name": "worker log", "status": "info", "value": err["stderr_tail"][-1500:]})
        return {"ok": False, "backend": result.get("backend") or backend, "checks": checks}
    checks.extend(result.get("checks", []))
    ok = all(c["status"] != "fail" for c in checks)
    return {
        "ok": ok,
        "backend": result.get("backend", lab.info.get("backend")),
        "checks": checks,
        "worker": lab.info,
    }
