"""Answers correctly, but the second act only after the budget and grace."""

import json
import sys
import time


def main() -> None:
    n = 0
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            print(json.dumps({"type": "ready", "name": "late"}), flush=True)
        elif msg["type"] == "act":
            n += 1
            if n == 2:
                time.sleep((msg["budget_ms"] + 400) / 1000)
            view = msg["view"]
            key = "bid" if view["phase"] == "bid" else "card"
            value = view["legal"][-1]
            print(json.dumps({"type": "action", "id": msg["id"], key: value}), flush=True)
        elif msg["type"] == "quit":
            break


if __name__ == "__main__":
    main()
