"""The autonomous mesh: one step = one action, mostly one event. Each step draws from its
own Random seeded by (seed, step number), and the step number is stored, so the same seed
and the same database give the same actions, across restarts too."""
from __future__ import annotations

import asyncio
import logging
from random import Random

import textgen
from mesh import Mesh

log = logging.getLogger("devserver")

MIN_ACTIVE = 3   # running + queued tasks the mesh keeps going
MAX_ACTIVE = 6
# --live-tasks: the share of steps that start a task running and streaming at once, while
# fewer than MAX_LIVE_ACTIVE tasks are active.
LIVE_SHARE = 0.03
MAX_LIVE_ACTIVE = 10
HEARTBEAT_S = 5.0


class Simulation:
    def __init__(self, mesh: Mesh, seed: int, rate: float, live_tasks: bool = False):
        self.mesh, self.seed, self.rate = mesh, seed, rate
        self.live_tasks = live_tasks
        self._tasks: list[asyncio.Task] = []

    def step(self) -> int:
        """Runs one step; returns the number of actions that emitted events (0 or 1)."""
        store = self.mesh.store
        n = int(store.meta("sim_steps", "0")) + 1
        store.set_meta("sim_steps", n)
        r = Random(f"{self.seed}:step:{n}")
        active = [row["id"] for row in store.all(
            "SELECT id FROM tasks WHERE status IN ('running','queued') ORDER BY created_at, id")]
        roll = r.random()
        if len(active) < MIN_ACTIVE or (roll < 0.03 and len(active) < MAX_ACTIVE):
            self.mesh.create_task("queued", rng=r, pick_contract=True)
            return 1
        if roll < 0.055:
            return self._question(r, active)
        if self.live_tasks and roll >= 1 - LIVE_SHARE and len(active) < MAX_LIVE_ACTIVE:
            self.mesh.create_live_task(rng=r, pick_contract=True)
            return 1
        if roll < 0.065:
            pending = store.all("SELECT id FROM directives WHERE question IS NOT NULL ORDER BY ord")
            # The first pending question stays: the dashboard always has one to show.
            if len(pending) > 1:
                self.mesh.resolve_question(r.choice(pending[1:])["id"])
                return 0
        self.mesh.advance(r.choice(active))
        return 1

    def _question(self, r: Random, active: list[str]) -> int:
        free = self.mesh.store.all("SELECT id FROM directives WHERE question IS NULL AND status='active' ORDER BY ord")
        running = [t for t in active if self.mesh.store.one("SELECT 1 FROM tasks WHERE id=? AND status='running'", (t,))]
        if not free or not running:
            self.mesh.advance(r.choice(active))
            return 1
        self.mesh.raise_question(r.choice(free)["id"], r.choice(running), textgen.question(r), r)
        return 1

    def tick(self, count: int) -> int:
        """Runs `count` steps; returns the events they committed (output cut into pieces
        makes one step several events)."""
        before = self.mesh.store.events_committed
        for _ in range(count):
            self.step()
        return self.mesh.store.events_committed - before

    # ---- autonomous running ------------------------------------------------------------

    def start(self) -> None:
        if self.rate <= 0:
            return
        self._tasks = [asyncio.create_task(self._run_steps()), asyncio.create_task(self._run_heartbeats())]

    async def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            try:
                await t
            except asyncio.CancelledError:
                pass

    async def _run_steps(self) -> None:
        loop = asyncio.get_running_loop()
        interval = 1.0 / self.rate
        next_at = loop.time()
        while True:
            next_at += interval
            try:
                self.step()
            except Exception:  # noqa: BLE001 - a bad step must not stop the mesh
                log.exception("simulation step failed")
            delay = next_at - loop.time()
            if delay < -1.0:
                # Fell behind (a long burst held the loop): carry on from now, no flood.
                next_at = loop.time()
            await asyncio.sleep(max(0.0, delay))

    async def _run_heartbeats(self) -> None:
        beat = int(self.mesh.store.meta("heartbeats", "0"))
        while True:
            beat += 1
            self.mesh.store.set_meta("heartbeats", beat)
            try:
                self.mesh.heartbeat(Random(f"{self.seed}:heartbeat:{beat}"))
            except Exception:  # noqa: BLE001
                log.exception("heartbeat failed")
            await asyncio.sleep(HEARTBEAT_S)

