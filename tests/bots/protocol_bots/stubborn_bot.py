"""Answers correctly and says so on standard error, but does not stop at
the end of its input: only ``quit`` (or being killed) ends it. Each
process writes its pid, and ``quit`` when told, to a file in the folder
given as its argument."""

import json
import os
import sys
import time
from pathlib import Path


def main() -> None:
    note = Path(sys.argv[1]) / f"{os.getpid()}.txt"
    note.write_text("started\n")
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            print("stubborn bot says hello on stderr", file=sys.stderr, flush=True)
            print(json.dumps({"type": "ready", "name": "stubborn"}), flush=True)
        elif msg["type"] == "act":
            view = msg["view"]
            key = "bid" if view["phase"] == "bid" else "card"
            value = view["legal"][-1]
            print(json.dumps({"type": "action", "id": msg["id"], key: value}), flush=True)
        elif msg["type"] == "quit":
            with note.open("a") as f:
                f.write("quit\n")
            return
    while True:  # the end of input alone does not stop it
        time.sleep(1)


if __name__ == "__main__":
    main()
