"""`tritonlab doctor` and the in-app environment check: the client's view plus the worker's."""

from __future__ import annotations

import sys


def run_doctor(backend: str = "auto", timeout: float = 180.0) -> dict:
    from tritonlab import __version__
    from tritonlab.content.loader import load_catalog
    from tritonlab.engine.client import WorkerClient

    checks = [{"name": "tritonlab", "status": "ok", "value": __version__}]
    catalog = load_catalog()
    lessons_ok = bool(catalog.lessons) and not catalog.problems
    checks.append({
        "name": "lessons",
        "status": "ok" if lessons_ok else ("warn" if catalog.lessons else "fail"),
        "value": f"{len(catalog.lessons)} lessons, {len(catalog.all_exercises())} exercises"
        + (f"; {len(catalog.problems)} problems: " + "; ".join(str(p) for p in catalog.problems[:3])
           if catalog.problems else ""),
        "fix": "reinstall tritonlab (pip install .)" if not catalog.lessons else None,
    })
    client = WorkerClient(backend=backend)
    try:
        result = client.request("doctor", {}, timeout=timeout)
    finally:
        client.close()
    if result.get("error"):
        err = result["error"]
        checks.append({"name": "python", "status": "ok" if sys.version_info >= (3, 10) else "fail",
                       "value": sys.version.split()[0]})
        checks.append({"name": "worker", "status": "fail", "value": err.get("message"),
                       "fix": "pip install torch triton 'numpy<2.4' — the worker process must import both"})
        if err.get("stderr_tail"):
            checks.append({"name": "worker log", "status": "info", "value": err["stderr_tail"][-1500:]})
        return {"ok": False, "backend": backend, "checks": checks}
    checks.extend(result.get("checks", []))
    ok = all(c["status"] != "fail" for c in checks)
    return {"ok": ok, "backend": result.get("backend", client.info.get("backend")), "checks": checks,
            "worker": client.info}
