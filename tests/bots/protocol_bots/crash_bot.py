"""Plays a few legal moves, then exits in the middle of the game."""

import json
import sys


def main() -> None:
    n = 0
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            print(json.dumps({"type": "ready", "name": "crash"}), flush=True)
        elif msg["type"] == "act":
            n += 1
            if n == 3:
                print("crashing on purpose", file=sys.stderr, flush=True)
                sys.exit(3)
            view = msg["view"]
            key = "bid" if view["phase"] == "bid" else "card"
            answer = {"type": "action", "id": msg["id"], key: view["legal"][0]}
            print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    main()
