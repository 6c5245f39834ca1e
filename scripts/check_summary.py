"""One line for `tritonlab check --json`: how many runs, which ones went the wrong way (a solution that fails or
a starter that passes). Used by the GPU scripts: python3 scripts/check_summary.py check.json"""

import json
import sys


def main(path: str) -> None:
    try:
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except Exception as exc:  # noqa: BLE001 - a check that never wrote its JSON (stopped by a timeout)
        print("check: no json:", exc)
        return
    bad = [r for r in data["runs"] if not r.get("skipped") and r["passed"] != (r["which"] == "solution")]
    print("check:", len(data["runs"]), "runs,", len(bad), "wrong;", "ok" if data.get("ok") else data.get("failures"))
    for r in bad:
        print("  WRONG", r["exercise"], r["which"], r["passed"], str(r.get("kind") or r.get("summary") or "")[:200])


if __name__ == "__main__":
    main(sys.argv[1])
