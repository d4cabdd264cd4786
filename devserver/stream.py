"""A paced stream for the sustained-stream bench (`/_dev/stream`): `rate` task.output events a
second for `seconds`, round-robin over `tasks` new running tasks, each event a piece of 1-40
characters cut anywhere from text with no blank line (a build log, or one code block that is
opened and never closed), published as it is written, like agents streaming tokens. A burst
measures events per second; this measures what a steady pace costs per second of wall time."""
from __future__ import annotations

import asyncio
import time
from random import Random

MAX_RATE = 20_000
MAX_SECONDS = 3_600
TICK = 0.01


def log_line(r: Random, n: int) -> str:
    words = ["Compiling", "Linking", "warning:", "note:", "src/engine.swift", "ok", "[build]", "target", "0.42s"]
    return f"[{n:06d}] " + " ".join(r.choice(words) for _ in range(r.randint(3, 12))) + "\n"


def code_line(r: Random, n: int) -> str:
    return "    " * r.randint(0, 3) + f"let value{n} = compute({r.randint(0, 999)}, label: \"step {n}\")\n"


class Source:
    """One task's text, endless, handed out in pieces of 1-40 characters."""

    def __init__(self, seed: str, shape: str):
        self.r = Random(seed)
        self.shape = shape
        self.n = 0
        self.buffer = "```swift\n" if shape == "code" else ""

    def piece(self) -> str:
        k = self.r.randint(1, 40)
        while len(self.buffer) < k:
            self.n += 1
            self.buffer += (code_line if self.shape == "code" else log_line)(self.r, self.n)
        out, self.buffer = self.buffer[:k], self.buffer[k:]
        return out


class PacedStream:
    def __init__(self, mesh, rate: int, seconds: float, tasks: int, shape: str):
        self.mesh = mesh
        self.rate = max(1, min(rate, MAX_RATE))
        self.seconds = max(0.0, min(seconds, MAX_SECONDS))
        self.ids = [mesh.create_task("running", title=f"Stream {i + 1} ({shape})")["id"]
                    for i in range(max(1, min(tasks, 1000)))]
        self.sources = {t: Source(f"{mesh.seed}:stream:{t}", shape) for t in self.ids}
        self.sent = 0
        self.done = False

    async def run(self) -> None:
        started = time.monotonic()
        total = int(self.rate * self.seconds)
        while self.sent < total:
            await asyncio.sleep(TICK)
            due = min(total, int((time.monotonic() - started) * self.rate))
            by_task: dict[str, list[str]] = {}
            for i in range(self.sent, due):
                task = self.ids[i % len(self.ids)]
                by_task.setdefault(task, []).append(self.sources[task].piece())
            if by_task:
                with self.mesh.store.whole_output(True), self.mesh._publishing():
                    for task, pieces in by_task.items():
                        self.mesh.store.add_output_batch(task, pieces, "assistant")
                self.sent = due
        self.done = True
