"""Token buckets: a steady rate with room for a burst."""

from __future__ import annotations

__all__ = ["TokenBucket"]


class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up. Time is passed in
    (seconds, monotonic) so the bucket is easy to test.

    >>> b = TokenBucket(rate=1.0, burst=2, now=0.0)
    >>> [b.take(0.0), b.take(0.0), b.take(0.0), b.take(1.0)]
    [True, True, False, True]
    """

    __slots__ = ("_last", "_tokens", "burst", "rate")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = float(burst)
        self._last = now

    def take(self, now: float, cost: float = 1.0) -> bool:
        """Spend ``cost`` tokens if there are enough; False (nothing spent) if not."""
        elapsed = max(0.0, now - self._last)
        self._last = now
        self._tokens = min(self.burst, self._tokens + elapsed * self.rate)
        if self._tokens >= cost:
            self._tokens -= cost
            return True
        return False

    def ready(self, now: float, cost: float = 1.0) -> bool:
        """Whether ``take`` would spend ``cost`` now (nothing is spent).

        >>> b = TokenBucket(rate=1.0, burst=1, now=0.0)
        >>> [b.ready(0.0), b.ready(0.0), b.take(0.0), b.ready(0.5)]
        [True, True, True, False]
        """
        elapsed = max(0.0, now - self._last)
        self._last = now
        self._tokens = min(self.burst, self._tokens + elapsed * self.rate)
        return self._tokens >= cost

    def retry_after(self, cost: float = 1.0) -> float:
        """Seconds until ``cost`` tokens are there (from the last ``take``)."""
        return max(0.0, (cost - self._tokens) / self.rate)
