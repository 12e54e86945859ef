"""Answers hello, then every act with garbage: not JSON, a wrong id, a
wrong shape, in turn."""

import json
import sys


def main() -> None:
    n = 0
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            print(json.dumps({"type": "ready", "name": "garbage"}), flush=True)
        elif msg["type"] == "act":
            n += 1
            kind = n % 3
            if kind == 1:
                print("this is {not json", flush=True)
            elif kind == 2:
                print(json.dumps({"type": "action", "id": msg["id"] + 1000, "bid": 2}), flush=True)
            else:
                print(json.dumps({"type": "action", "id": msg["id"], "bid": True}), flush=True)
        elif msg["type"] == "quit":
            break


if __name__ == "__main__":
    main()
