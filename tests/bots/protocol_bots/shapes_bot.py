"""Answers hello, then every act with an answer of the wrong shape: an id
that is a float, a JSON array, an object without an id, in turn."""

import json
import sys


def main() -> None:
    n = 0
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            print(json.dumps({"type": "ready", "name": "shapes"}), flush=True)
        elif msg["type"] == "act":
            n += 1
            key = "bid" if msg["view"]["phase"] == "bid" else "card"
            value = msg["view"]["legal"][-1]
            if n % 3 == 1:
                answer = {"type": "action", "id": float(msg["id"]), key: value}
                print(json.dumps(answer), flush=True)
            elif n % 3 == 2:
                print(json.dumps([msg["id"], value]), flush=True)
            else:
                print(json.dumps({"type": "log", "text": "thinking"}), flush=True)
        elif msg["type"] == "quit":
            break


if __name__ == "__main__":
    main()
