"""When each hand's analysis of a finished game is ready on the server
(``server/analysis.py``: the expert, hand by hand, in its own process),
from the first ask, as the replay page sees it:

    .venv/bin/python bench/analysis_stream.py [RECORD.json]

Prints the seconds at which each hand became ready (the first includes
starting the worker process). Default record: a 10-hand game of heuristic
self-play (bench/results/bots/game10.json).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

from fourhundred.server.analysis import Analyses

DEFAULT = Path(__file__).resolve().parent / "results" / "bots" / "game10.json"


async def main(path: Path) -> None:
    record = json.loads(path.read_text(encoding="utf-8"))
    analyses = Analyses()
    t0 = time.perf_counter()
    seen = 0
    try:
        while True:
            progress = analyses.get("bench", record)
            while seen < progress.done:
                seen += 1
                print(
                    f"hand {seen} of {progress.total} ready after {time.perf_counter() - t0:.1f} s"
                )
            if progress.complete:
                break
            await asyncio.sleep(0.05)
    finally:
        analyses.close()


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT))
