"""Always answers with an action that is not legal (bid 1 under min_bid 2,
or a card it does not hold)."""

import json
import sys

ALL = [r + s for s in "CDHS" for r in "23456789TJQKA"]


def main() -> None:
    for line in sys.stdin:
        msg = json.loads(line)
        if msg["type"] == "hello":
            print(json.dumps({"type": "ready", "name": "illegal"}), flush=True)
        elif msg["type"] == "act":
            view = msg["view"]
            if view["phase"] == "bid":
                answer = {"type": "action", "id": msg["id"], "bid": 1}
            else:
                bad = next(c for c in ALL if c not in view["legal"])
                answer = {"type": "action", "id": msg["id"], "card": bad}
            print(json.dumps(answer), flush=True)
        elif msg["type"] == "quit":
            break


if __name__ == "__main__":
    main()
