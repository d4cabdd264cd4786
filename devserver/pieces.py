"""Output cut as an agent streams it (`--output-pieces MIN,MAX`): every `task.output` text
the server writes becomes pieces of MIN..MAX characters, cut anywhere (inside words,
markdown markers, table rows, escape sequences, runs of newlines), never inside a code
point (Python strings are sequences of code points, so a slice is always whole UTF-8).
Each piece is its own event with its own seq. The cuts are a pure function of (seed,
task id, the seq of the first piece), so the same seed and the same actions give the same
pieces."""
from __future__ import annotations

from random import Random


def parse(spec: str | None) -> tuple[int, int] | None:
    """`MIN,MAX` (e.g. `1,40`) → (MIN, MAX); `0`, empty or None → None (whole texts)."""
    if spec is None or spec.strip() in ("", "0"):
        return None
    parts = spec.split(",")
    try:
        lo, hi = (int(p) for p in parts)
    except ValueError:
        raise ValueError(f"--output-pieces must be MIN,MAX (two integers) or 0, not {spec!r}") from None
    if not 1 <= lo <= hi <= 1_000_000:
        raise ValueError(f"--output-pieces needs 1 <= MIN <= MAX <= 1000000 (got {lo},{hi})")
    return lo, hi


class Pieces:
    def __init__(self, lo: int, hi: int, seed: int):
        self.lo, self.hi, self.seed = lo, hi, seed

    def cut(self, task_id: str, first_seq: int, texts: list[str]) -> list[str]:
        """The pieces of `texts`, in order; a text never shares a piece with the next (each
        write stays its own run of events). A text shorter than MIN is one piece; when
        MAX < 2·MIN - 1 a text's last piece may be shorter than MIN."""
        r = Random(f"{self.seed}:pieces:{task_id}:{first_seq}")
        rand = r.random
        lo, span = self.lo, self.hi - self.lo + 1
        out: list[str] = []
        for text in texts:
            n, i = len(text), 0
            if n == 0:
                out.append(text)
                continue
            while i < n:
                k = lo + int(rand() * span)
                left = n - i - k
                if 0 < left < lo:
                    # A stub shorter than MIN would be left: take it all, or leave exactly MIN.
                    k = n - i if n - i <= self.hi else n - i - lo
                out.append(text[i:i + k])
                i += k
        return out
