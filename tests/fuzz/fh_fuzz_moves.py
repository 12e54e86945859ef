"""Strategies of hostile frames at the game level, aimed at the live table
when they are fired: moves out of turn and for another seat, a spectator's
and an outsider's moves, stale versions, moves the rules refuse,
waiting-room commands during play, replayed ids and joins by wrong ids and
codes. Each knows the exact refusal it must get.
"""

from __future__ import annotations

import json
from typing import Any

from fh_fuzz_ids import Ctx, Shot, Spec
from fh_fuzz_transport import senders
from fh_wire import CARD_NAMES
from hypothesis import strategies as st

from fourhundred.engine import parse_card


def _move_body(ctx: Ctx, seat: int, kind: str, pick: int) -> dict[str, Any]:
    """A bid or card that would make sense for ``seat`` (from its own hand
    or from the legal bids)."""
    if kind == "bid":
        legal = [x for x in ctx.legal if isinstance(x, int)] or [4]
        return {"type": "bid", "bid": legal[pick % len(legal)]}
    hand = ctx.hand(seat) or list(CARD_NAMES)
    return {"type": "play", "card": hand[pick % len(hand)]}


def _is_card(text: str) -> bool:
    """Whether the engine reads ``text`` as a card (it also takes "10H",
    "qd", " AS" and the like)."""
    try:
        parse_card(text)
    except ValueError:
        return False
    return True


def _phase_kind(ctx: Ctx) -> str:
    return "bid" if ctx.phase == "bid" else "play"


@st.composite
def out_of_turn(draw: st.DrawFn) -> Spec:
    offset = draw(st.integers(1, 3))
    pick = draw(st.integers(0, 51))
    with_seat = draw(st.booleans())

    def aim(ctx: Ctx) -> Shot:
        sender = ctx.seat_of("nonmover", offset)
        seat = int(sender[-1])
        body = _move_body(ctx, seat, _phase_kind(ctx), pick)
        if with_seat:
            body["seat"] = seat  # naming your own seat does not help
        expect = "not_your_turn" if ctx.phase in ("bid", "play") else "wrong_phase"
        body["id"] = _id(ctx, sender)
        return Shot("out_of_turn", sender, json.dumps(body), expect=frozenset({expect}))

    return Spec("out_of_turn", aim)


def _id(ctx: Ctx, sender: str) -> str:
    """A fresh id for a frame that must be judged on its content."""
    wire = ctx.wires.get(sender)
    return wire.new_id() if wire is not None else "x" + str(ctx.rng.getrandbits(64))


@st.composite
def other_seat(draw: st.DrawFn) -> Spec:
    """The mover names another seat (or a seat that does not exist)."""
    kind = draw(st.sampled_from(["bid", "play", "redeal"]))
    target = draw(st.one_of(st.integers(1, 3), st.integers(4, 10**30), st.integers(-(10**30), -1)))
    pick = draw(st.integers(0, 51))

    def aim(ctx: Ctx) -> Shot:
        sender = ctx.seat_of("mover")
        seat = int(sender[-1])
        named = (seat + target) % 4 if 1 <= target <= 3 else target
        body = {"type": "redeal"} if kind == "redeal" else _move_body(ctx, seat, kind, pick)
        body.update(id=_id(ctx, sender), seat=named)
        return Shot("other_seat", sender, json.dumps(body), expect=frozenset({"not_your_seat"}))

    return Spec("other_seat", aim)


@st.composite
def not_a_player(draw: st.DrawFn) -> Spec:
    """A spectator's or an unattached user's move."""
    who = draw(st.sampled_from(["spectator", "outsider"]))
    kind = draw(st.sampled_from(["bid", "play", "redeal", "ready", "leave", "reclaim"]))
    pick = draw(st.integers(0, 51))

    def aim(ctx: Ctx) -> Shot:
        if kind in ("bid", "play"):
            body = _move_body(ctx, ctx.turn or 0, kind, pick)
        elif kind == "ready":
            body = {"type": "ready", "ready": True}
        else:
            body = {"type": kind}
        body["id"] = _id(ctx, who)
        if who == "outsider":
            expect = {"not_attached"}
        elif kind == "ready":
            expect = {"not_allowed"}  # no ready once the game started
        else:
            expect = {"not_seated"}
        return Shot("not_a_player", who, json.dumps(body), expect=frozenset(expect))

    return Spec("not_a_player", aim)


@st.composite
def stale(draw: st.DrawFn) -> Spec:
    """The mover's legal move, on a version that is not the table's."""
    delta = draw(st.one_of(st.integers(-5, -1), st.integers(1, 5), st.integers(10**6, 10**30)))
    pick = draw(st.integers(0, 51))

    def aim(ctx: Ctx) -> Shot:
        sender = ctx.seat_of("mover")
        version = max(0, ctx.version + delta)
        if version == ctx.version:
            version += 1
        legal = ctx.legal or [4]
        move = legal[pick % len(legal)]
        body = (
            {"type": "bid", "bid": move}
            if isinstance(move, int)
            else {"type": "play", "card": move}
        )
        body.update(id=_id(ctx, sender), version=version)
        expect = "stale" if ctx.phase in ("bid", "play") else "wrong_phase"
        return Shot("stale", sender, json.dumps(body), expect=frozenset({expect}))

    return Spec("stale", aim)


@st.composite
def illegal_moves(draw: st.DrawFn) -> Spec:
    """The mover's bid or card that the rules refuse now."""
    choice = draw(
        st.sampled_from(
            [
                "bad_bid",
                "card_in_bidding",
                "bid_in_play",
                "bad_card",
                "not_held",
                "not_following",
                "redeal",
            ]
        )
    )
    bad_bid = draw(
        st.one_of(st.integers(-(10**30), 0), st.integers(14, 10**30), st.integers(1, 13))
    )
    bad_card = draw(
        st.one_of(
            st.text(max_size=10).filter(lambda s: not _is_card(s)),
            st.sampled_from(["", "1C", "11H", "AHH", "\uff21H", "A\u0000", "T", "ZZ", "A"]),
        )
    )
    pick = draw(st.integers(0, 51))

    def aim(ctx: Ctx) -> Shot:
        sender = ctx.seat_of("mover")
        seat = int(sender[-1])
        cid = _id(ctx, sender)
        over = ctx.phase not in ("bid", "play")
        if choice == "bad_card":
            body: dict[str, Any] = {"type": "play", "card": bad_card}
            expect = {"illegal"} if not over else {"illegal", "wrong_phase"}
        elif choice == "redeal":
            body = {"type": "redeal"}
            expect = {"illegal", "wrong_phase", "not_your_turn"}
        elif ctx.phase == "bid" and choice in ("bad_bid", "bid_in_play"):
            legal = [x for x in ctx.legal if isinstance(x, int)]
            n = bad_bid
            if 1 <= n <= 13 and n in legal:
                n = 14
            body = {"type": "bid", "bid": n}
            expect = {"illegal"}
        elif ctx.phase == "bid":
            body = _move_body(ctx, seat, "play", pick)
            expect = {"wrong_phase"}
        elif ctx.phase == "play" and choice in ("bad_bid", "bid_in_play"):
            body = {"type": "bid", "bid": 1 + pick % 13}
            expect = {"wrong_phase"}
        elif ctx.phase == "play":
            hand = ctx.hand(seat)
            legal = set(ctx.legal)
            if choice == "not_held":
                pool = [c for c in CARD_NAMES if c not in hand]
            else:
                pool = [c for c in hand if c not in legal]
            if not pool:
                pool = [c for c in CARD_NAMES if c not in hand]
            body = {"type": "play", "card": pool[pick % len(pool)]}
            expect = {"illegal"}
        else:
            body = {"type": "bid", "bid": 4}
            expect = {"wrong_phase"}
        body["id"] = cid
        return Shot("illegal", sender, json.dumps(body), expect=frozenset(expect))

    return Spec("illegal", aim)


@st.composite
def room_commands(draw: st.DrawFn) -> Spec:
    """Waiting-room commands during the game, by the host and by others."""
    kind = draw(
        st.sampled_from(["configure", "move", "add_bot", "remove", "sit", "ready", "reclaim"])
    )
    by_host = draw(st.booleans())
    seat = draw(st.integers(0, 3))
    other = draw(st.integers(0, 3))

    def aim(ctx: Ctx) -> Shot:
        host = ctx.host_seat if ctx.host_seat is not None else 0
        sender = f"seat{host}" if by_host else f"seat{(host + 1 + seat % 3) % 4}"
        body: dict[str, Any] = {"type": kind, "id": _id(ctx, sender)}
        if kind == "configure":
            body["settings"] = {"target": 51}
        elif kind == "move":
            body.update({"from": seat, "to": other})
        elif kind in ("add_bot", "remove", "sit"):
            body["seat"] = seat
        elif kind == "ready":
            body["ready"] = bool(other % 2)
        if kind in ("configure", "move", "add_bot", "remove"):
            expect = {"not_allowed"} if by_host else {"not_host"}
        else:
            expect = {"not_allowed"}
        return Shot("room_cmd", sender, json.dumps(body), expect=frozenset(expect))

    return Spec("room_cmd", aim)


@st.composite
def replayed(draw: st.DrawFn) -> Spec:
    """An id this socket already used (one the server accepted or answered
    with ``pong``), on the mover's *legal* move: it must be refused as a
    duplicate and never applied."""
    who = draw(st.sampled_from(["mover", "nonmover", "spectator"]))
    pick = draw(st.integers(0, 10**6))

    def aim(ctx: Ctx) -> Shot:
        sender = ctx.seat_of(who)
        wire = ctx.wires.get(sender)
        used = wire.used_ids if wire is not None else []
        cid = used[pick % len(used)] if used else "never-used"
        legal = ctx.legal or [4]
        move = legal[pick % len(legal)]
        body = (
            {"type": "bid", "bid": move}
            if isinstance(move, int)
            else {"type": "play", "card": move}
        )
        body["id"] = cid
        return Shot(
            "replayed",
            sender,
            json.dumps(body),
            expect=frozenset({"duplicate"}) if used else None,
        )

    return Spec("replayed", aim)


@st.composite
def bad_joins(draw: st.DrawFn) -> Spec:
    who = draw(senders)
    how = draw(st.sampled_from(["table", "invite", "both", "neither", "private_id"]))
    value = draw(st.text(max_size=128).filter(lambda s: "\x00" not in s))

    def aim(ctx: Ctx) -> Shot:
        sender = ctx.seat_of(who)
        body: dict[str, Any] = {"type": "join", "id": _id(ctx, sender)}
        if how == "table":
            body["table"] = value
            expect = {"not_found"}
        elif how == "invite":
            body["invite"] = value
            expect = {"not_found"}
        elif how == "both":
            body.update(table=ctx.table, invite=ctx.invite)
            expect = {"bad_message"}
        elif how == "neither":
            expect = {"bad_message"}
        else:
            # The Private table's id without its invite: only its own
            # players may join it that way; anyone else is told "not found".
            body["table"] = ctx.table
            if sender.startswith("seat"):
                return Shot("bad_join", sender, json.dumps(body))
            expect = {"not_found"}
        return Shot("bad_join", sender, json.dumps(body), expect=frozenset(expect))

    return Spec("bad_join", aim)
