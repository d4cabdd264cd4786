"""The mesh model: every state change that emits events goes through here, so each one is
one transaction followed by one publish to the WebSocket hub."""
from __future__ import annotations

import asyncio
import json
from contextlib import contextmanager
from random import Random

import textgen
import util
from hub import Hub
from store import Store, load_json
from util import det_uuid, dumps

FINAL = {"completed", "failed", "cancelled"}
BURST_BATCH = 2000
MAX_BURST = 1_000_000
# Script items a task created live streams at once (after its running status).
LIVE_FIRST_ITEMS = 2
MAX_LIVE_FIRST_ITEMS = 20


class NotFound(Exception):
    pass


class Mesh:
    def __init__(self, store: Store, hub: Hub, seed: int):
        self.store, self.hub, self.seed = store, hub, seed
        self._scripts: dict[str, list] = {}
        self._bursts: dict[str, tuple[bytes, int]] = {}

    # ---- helpers -----------------------------------------------------------------------

    def task_row(self, task_id: str):
        row = self.store.one("SELECT * FROM tasks WHERE id=?", (task_id,))
        if row is None:
            raise NotFound(task_id)
        return row

    def script(self, task_id: str) -> list:
        s = self._scripts.get(task_id)
        if s is None:
            row = self.store.one("SELECT extra FROM tasks WHERE id=?", (task_id,))
            hostile = bool(row and load_json(row["extra"], {}).get("x_hostile_output"))
            s = textgen.build_script(self.seed, task_id, hostile)
            if len(self._scripts) > 512:
                self._scripts.clear()
            self._scripts[task_id] = s
        return s

    @contextmanager
    def _publishing(self):
        """A transaction whose events are published once it has committed."""
        with self.store.tx() as pending:
            yield pending
        self.hub.publish(pending)

    # ---- task lifecycle ----------------------------------------------------------------

    def insert_task(self, *, task_id: str, title: str, plan: str, status: str, contract_id=None,
                    parent_id=None, daemon_id=None, created_at: float, extra: dict | None = None,
                    ts: float | None = None) -> None:
        """Inserts a task and its first event (inside a transaction): task.status with the
        status it was created in."""
        s = self.store
        completed = created_at if status in FINAL else None
        s.execute("INSERT INTO tasks(id, contract_id, parent_id, title, plan, status, daemon_id, created_at,"
                  " updated_at, completed_at, last_seq, sim_step, extra) VALUES(?,?,?,?,?,?,?,?,?,?,0,?,?)",
                  (task_id, contract_id, parent_id, title, plan, status, daemon_id, created_at, created_at,
                   completed, 1 if status == "running" else 0, dumps(extra or {})))
        data = {"status": status}
        if status == "running":
            data["previous"] = "queued"
        s.add_event(task_id, "task.status", data, ts=ts)

    def create_task(self, status: str = "queued", *, contract_id=None, title=None, daemon_id=None,
                    parent_id=None, rng: Random | None = None, pick_contract: bool = False,
                    task_id: str | None = None) -> dict:
        if rng is None:
            n = int(self.store.meta("dev_tasks", "0")) + 1
            self.store.set_meta("dev_tasks", n)
            rng = Random(f"{self.seed}:devtask:{n}")
        r = rng
        title = title or textgen.task_title(r)
        if contract_id is None and pick_contract:
            active = self.store.all("SELECT id FROM contracts WHERE status='active' ORDER BY id")
            if active and r.random() < 0.85:
                contract_id = r.choice(active)["id"]
        if daemon_id is None and status in ("queued", "running"):
            daemon_id = self.least_loaded_daemon()
        task_id = task_id or det_uuid(r)
        now = util.now()
        with self._publishing():
            self.insert_task(task_id=task_id, title=title, plan=textgen.task_plan(r, title), status=status,
                             contract_id=contract_id, parent_id=parent_id, daemon_id=daemon_id, created_at=now,
                             extra={"priority": r.choice(["low", "normal", "high"]), "tags": ["sim"]})
            if contract_id:
                self.store.execute("UPDATE contracts SET updated_at=? WHERE id=?", (now, contract_id))
        return dict(self.task_row(task_id))

    def create_live_task(self, first_items: int = LIVE_FIRST_ITEMS, **task_args) -> dict:
        """A task that starts running and streams at once: its first `task.status` and the
        first items of its script are published before anything else can run, so a client
        hears of it before any task list it read holds it. The task is stored like any other
        (GET /mesh/tasks/{id} and later list reads show it)."""
        task_id = self.create_task("running", **task_args)["id"]
        # The script's last three items (gate text, gate event, final status) stay for later.
        for _ in range(max(0, min(first_items, len(self.script(task_id)) - 4))):
            self.advance(task_id)
        return dict(self.task_row(task_id))

    def least_loaded_daemon(self) -> str | None:
        row = self.store.one(
            "SELECT d.id FROM daemons d LEFT JOIN tasks t ON t.daemon_id=d.id AND t.status IN ('running','queued')"
            " WHERE d.status IN ('online','busy') GROUP BY d.id ORDER BY COUNT(t.id), d.ord LIMIT 1")
        return row["id"] if row else None

    def _apply_status(self, task_id: str, status: str, previous: str, reason: str | None, now: float) -> dict:
        data = {"status": status, "previous": previous}
        if reason:
            data["reason"] = reason
        completed = now if status in FINAL else None
        self.store.execute("UPDATE tasks SET status=?, updated_at=?, completed_at=? WHERE id=?",
                           (status, now, completed, task_id))
        return self.store.add_event(task_id, "task.status", data)

    def set_status(self, task_id: str, status: str, reason: str | None = None) -> dict:
        row = self.task_row(task_id)
        with self._publishing():
            return self._apply_status(task_id, status, row["status"], reason, util.now())

    def advance(self, task_id: str) -> dict:
        """Emits the next item of a queued or running task's script."""
        row = self.task_row(task_id)
        script = self.script(task_id)
        step = min(row["sim_step"], len(script) - 1)
        etype, data = script[step]
        now = util.now()
        with self._publishing():
            if etype == "task.status":
                event = self._apply_status(task_id, data["status"], row["status"], data.get("reason"), now)
            else:
                self.store.execute("UPDATE tasks SET updated_at=? WHERE id=?", (now, task_id))
                event = self.store.add_event(task_id, etype, data)
            self.store.execute("UPDATE tasks SET sim_step=? WHERE id=?", (step + 1, task_id))
        return event

    # ---- directives --------------------------------------------------------------------

    def raise_question(self, directive_id: str, task_id: str | None, text: str, rng: Random) -> dict:
        d = self.store.one("SELECT * FROM directives WHERE id=?", (directive_id,))
        if d is None:
            raise NotFound(directive_id)
        if task_id is None:
            row = self.store.one("SELECT id FROM tasks WHERE status='running' ORDER BY contract_id=? DESC, created_at DESC LIMIT 1",
                                 (d["contract_id"],))
            if row is None:
                task_id = self.create_task("running", contract_id=d["contract_id"], rng=rng)["id"]
            else:
                task_id = row["id"]
        else:
            self.task_row(task_id)
        qid = "q_" + det_uuid(rng).replace("-", "")[:16]
        now = util.now()
        with self._publishing():
            question = {"id": qid, "text": text, "asked_at": now, "task_id": task_id}
            self.store.execute("UPDATE directives SET question=?, updated_at=? WHERE id=?",
                               (json.dumps(question, ensure_ascii=False), now, directive_id))
            event = self.store.add_event(task_id, "task.supervisor_question",
                                         {"question_id": qid, "text": text, "directive_id": directive_id})
        return event

    def resolve_question(self, directive_id: str) -> None:
        self.store.execute("UPDATE directives SET question=NULL, updated_at=? WHERE id=?", (util.now(), directive_id))

    # ---- daemons -----------------------------------------------------------------------

    def heartbeat(self, rng: Random) -> None:
        now = util.now()
        rows = self.store.all("SELECT id FROM daemons WHERE status IN ('online','busy') ORDER BY ord")
        with self.store.tx():
            for row in rows:
                self.store.execute("UPDATE daemons SET last_heartbeat=? WHERE id=?", (now - rng.uniform(0, 3), row["id"]))
            if rng.random() < 0.04:
                self._flip_daemon(rng, now)

    def _flip_daemon(self, rng: Random, now: float) -> None:
        rows = self.store.all("SELECT id, status FROM daemons ORDER BY ord")
        running = {r[0] for r in self.store.all("SELECT DISTINCT daemon_id FROM tasks WHERE status IN ('running','queued')")}
        online = [r for r in rows if r["status"] in ("online", "busy")]
        pick = rng.choice(rows)
        if pick["status"] == "offline":
            self.store.execute("UPDATE daemons SET status='online', last_heartbeat=? WHERE id=?", (now, pick["id"]))
        elif pick["id"] not in running and len(online) > 3:
            self.store.execute("UPDATE daemons SET status='offline' WHERE id=?", (pick["id"],))

    # ---- burst -------------------------------------------------------------------------

    def prepare_burst(self, count: int, tasks: int, task_ids: list[str] | None = None, whole: bool = False) -> dict:
        """A benchmark burst, sent later at memory speed: `count` texts of 40-400 bytes of
        markdown as task.output events (one each, or their pieces under --output-pieces unless
        `whole`), round-robin over `tasks` new running tasks (or the given ones), stored (so
        REST and resync agree with what is sent) but not published, and encoded once as
        WebSocket frames in one buffer. `send_burst` writes that buffer to every live
        subscriber."""
        count = max(0, min(count, MAX_BURST))
        tasks = max(1, min(tasks, 1000))
        if task_ids:
            for t in task_ids:
                self.task_row(t)
            ids = task_ids
            tasks = len(ids)
        else:
            ids = [self.create_task("running", title=f"Burst of {count} events")["id"] for _ in range(tasks)]
        pool = burst_texts(self.seed, 512)
        blob = bytearray()
        done = events = 0
        while done < count:
            n = min(BURST_BATCH, count - done)
            with self.store.whole_output(whole), self.store.tx() as pending:
                for k, task_id in enumerate(ids):
                    texts = [pool[(done + j) % len(pool)] for j in range(k, n, tasks)]
                    if texts:
                        self.store.add_output_batch(task_id, texts, "assistant")
                for _task, _seq, frame in pending:
                    blob += ws_text_frame(frame.encode())
                events += len(pending)
                pending.clear()  # not published: sent by send_burst
            done += n
        burst_id = f"b{len(self._bursts) + 1}"
        self._bursts[burst_id] = (bytes(blob), events)
        return {"burst_id": burst_id, "task_ids": ids, "count": events, "texts": count, "bytes": len(blob),
                "last_seqs": {t: self.store.last_seq.get(t, 0) for t in ids}}

    def send_burst(self, burst_id: str) -> int:
        """Queues a prepared burst for every live subscriber; the buffer is then forgotten."""
        blob, count = self._bursts.pop(burst_id)
        return self.hub.send_blob(blob, count)

    async def burst(self, task_id: str | None, count: int, whole: bool = False) -> tuple[str, int, int]:
        """`count` lines of output for one task (one event each, or their pieces under
        --output-pieces unless `whole`), committed and published in batches so WebSocket
        senders stream them while the rest is written. Returns (task id, last seq, events)."""
        count = max(0, min(count, MAX_BURST))
        if task_id is None:
            task_id = self.create_task("running", title=f"Burst of {count} output events")["id"]
        else:
            self.task_row(task_id)
        done = events = 0
        while done < count:
            n = min(BURST_BATCH, count - done)
            texts = [f"burst line {i} of {count}: the quick brown fox jumps over the lazy dog\n"
                     for i in range(done + 1, done + n + 1)]
            # No await inside: the simulation cannot write while output is kept whole.
            with self.store.whole_output(whole), self._publishing():
                events += self.store.add_output_batch(task_id, texts, "assistant")
                self.store.execute("UPDATE tasks SET updated_at=? WHERE id=?", (util.now(), task_id))
            done += n
            await asyncio.sleep(0)
        return task_id, self.store.last_seq.get(task_id, 0), events


def burst_texts(seed: int, n: int) -> list[str]:
    """n pieces of generated markdown output (prose, headings, lists, code), 40-400 bytes each."""
    r = Random(seed * 7919 + 17)
    pool: list[str] = []
    while len(pool) < n:
        kind = r.choice(["prose", "prose", "heading", "list", "swift", "bash", "ja"])
        text = "".join(t for t, _ in textgen._block(r, kind))
        raw = text.encode()
        if len(raw) < 40:
            continue
        pool.append(raw[:400].decode("utf-8", "ignore"))
    return pool


def ws_text_frame(payload: bytes) -> bytes:
    """An unmasked server text frame (RFC 6455 5.2), FIN set."""
    n = len(payload)
    if n < 126:
        head = bytes([0x81, n])
    elif n < 65536:
        head = bytes([0x81, 126]) + n.to_bytes(2, "big")
    else:
        head = bytes([0x81, 127]) + n.to_bytes(8, "big")
    return head + payload
