"""The SQLite file that holds every bit of dev server state.

All access happens on the asyncio loop thread through one connection, so a read never
sees a half-written batch and the in-memory counters (next event id, last seq per task)
move only when a transaction commits.
"""
from __future__ import annotations

import json
import sqlite3
from contextlib import contextmanager

from pieces import Pieces
from util import dumps, now, rfc3339

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS daemons(
    id TEXT PRIMARY KEY, ord INTEGER NOT NULL, hostname TEXT, status TEXT NOT NULL,
    last_heartbeat REAL, version TEXT, max_concurrent_tasks INTEGER, extra TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS contracts(
    id TEXT PRIMARY KEY, name TEXT NOT NULL, phase TEXT NOT NULL, status TEXT NOT NULL,
    autonomous_loop INTEGER NOT NULL, description TEXT, created_at REAL, updated_at REAL NOT NULL,
    extra TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tasks(
    id TEXT PRIMARY KEY, contract_id TEXT, parent_id TEXT, title TEXT, plan TEXT NOT NULL,
    status TEXT NOT NULL, daemon_id TEXT, created_at REAL, updated_at REAL NOT NULL,
    completed_at REAL, last_seq INTEGER NOT NULL DEFAULT 0, sim_step INTEGER NOT NULL DEFAULT 0,
    extra TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS tasks_by_status ON tasks(status, updated_at);
CREATE INDEX IF NOT EXISTS tasks_by_contract ON tasks(contract_id, updated_at);
CREATE INDEX IF NOT EXISTS tasks_by_updated ON tasks(updated_at);
CREATE TABLE IF NOT EXISTS events(
    event_id INTEGER PRIMARY KEY, task_id TEXT NOT NULL, seq INTEGER NOT NULL,
    type TEXT NOT NULL, frame TEXT NOT NULL, UNIQUE(task_id, seq));
CREATE TABLE IF NOT EXISTS directives(
    id TEXT PRIMARY KEY, ord INTEGER NOT NULL, title TEXT NOT NULL, status TEXT NOT NULL,
    contract_id TEXT, question TEXT, updated_at REAL NOT NULL, extra TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS listen_sessions(
    id TEXT PRIMARY KEY, title TEXT, started_at REAL NOT NULL, ended_at REAL,
    transcript TEXT NOT NULL, extra TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS api_keys(
    id INTEGER PRIMARY KEY AUTOINCREMENT, key_hash TEXT NOT NULL UNIQUE, prefix TEXT NOT NULL,
    name TEXT, created_at REAL NOT NULL, last_used_at REAL, revoked_at REAL);
"""

SCHEMA_VERSION = "1"


class Store:
    def __init__(self, path: str):
        self.path = path
        # Seconds added to every event's "ts" (--clock-skew): a server whose clock is off, or
        # one that stamps events when they were produced upstream. Stored state is not shifted.
        self.clock_skew = 0.0
        # --output-pieces: how task.output texts are cut into events (None: one event per text).
        self.pieces: Pieces | None = None
        # Set for one synchronous stretch by whole_output() (a test control's `whole=true`).
        self._whole = False
        # Events committed since start (tests ask how many events an action produced).
        self.events_committed = 0
        # Autocommit mode: transactions are opened explicitly by tx().
        self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.db.row_factory = sqlite3.Row
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.execute("PRAGMA busy_timeout=5000")
        self.db.executescript(SCHEMA)
        self._in_tx = False
        self._pending: list[tuple[str, int, str]] = []
        self._load_counters()

    # ---- counters and meta -------------------------------------------------------------

    def _load_counters(self) -> None:
        row = self.db.execute("SELECT MAX(event_id) FROM events").fetchone()
        from_events = (row[0] or 0) + 1
        self.next_event_id = max(from_events, int(self.meta("next_event_id", "1")))
        self.last_seq = {r["id"]: r["last_seq"] for r in self.db.execute("SELECT id, last_seq FROM tasks")}

    def meta(self, key: str, default: str | None = None) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else default

    def set_meta(self, key: str, value) -> None:
        self.db.execute("INSERT INTO meta(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value=excluded.value",
                        (key, str(value)))

    def is_fresh(self) -> bool:
        return self.meta("schema_version") is None

    def take_event_id(self) -> int:
        """An event id that no stored event has, for frames that are sent but not stored."""
        eid = self.next_event_id
        self.next_event_id += 1
        self.set_meta("next_event_id", self.next_event_id)
        return eid

    # ---- transactions and events -------------------------------------------------------

    @contextmanager
    def tx(self):
        """One write transaction. Yields the list of (task_id, seq, frame) appended in it;
        the caller publishes that list only after the commit."""
        assert not self._in_tx, "nested transaction"
        self.db.execute("BEGIN IMMEDIATE")
        self._in_tx = True
        self._pending = []
        saved_next, saved_seqs = self.next_event_id, {}
        self._saved_seqs = saved_seqs
        try:
            yield self._pending
            self.set_meta("next_event_id", self.next_event_id)
            self.db.execute("COMMIT")
            self.events_committed += len(self._pending)
        except BaseException:
            self.db.execute("ROLLBACK")
            self.next_event_id = saved_next
            for task_id, seq in saved_seqs.items():
                if seq is None:
                    self.last_seq.pop(task_id, None)
                else:
                    self.last_seq[task_id] = seq
            raise
        finally:
            self._in_tx = False

    @contextmanager
    def whole_output(self, whole: bool = True):
        """Output written inside is not cut into pieces. Wrap only code with no await inside,
        so no other writer (the simulation) runs while it holds."""
        saved = self._whole
        self._whole = saved or whole
        try:
            yield
        finally:
            self._whole = saved

    def _cut(self, task_id: str, texts: list[str]) -> list[str]:
        if self.pieces is None or self._whole:
            return texts
        return self.pieces.cut(task_id, self.last_seq.get(task_id, 0) + 1, texts)

    def _stamp(self, ts: float | None) -> str:
        return rfc3339((ts if ts is not None else now()) + self.clock_skew, "us")

    def add_event(self, task_id: str, etype: str, data: dict, ts: float | None = None) -> dict:
        """Appends the next event of a task (inside tx()). Returns the event as served; a
        `task.output` cut into pieces appends one event per piece and returns the last."""
        if etype == "task.output" and self.pieces is not None and not self._whole:
            event = None
            for piece in self._cut(task_id, [data["text"]]):
                event = self._append(task_id, etype, {**data, "text": piece}, ts)
            return event
        return self._append(task_id, etype, data, ts)

    def _append(self, task_id: str, etype: str, data: dict, ts: float | None) -> dict:
        assert self._in_tx
        if task_id not in self._saved_seqs:
            self._saved_seqs[task_id] = self.last_seq.get(task_id)
        seq = self.last_seq.get(task_id, 0) + 1
        eid = self.next_event_id
        event = {"event_id": eid, "task_id": task_id, "seq": seq, "type": etype, "ts": self._stamp(ts), "data": data}
        frame = dumps(event)
        self.db.execute("INSERT INTO events(event_id, task_id, seq, type, frame) VALUES(?,?,?,?,?)",
                        (eid, task_id, seq, etype, frame))
        self.db.execute("UPDATE tasks SET last_seq=? WHERE id=?", (seq, task_id))
        self.next_event_id = eid + 1
        self.last_seq[task_id] = seq
        self._pending.append((task_id, seq, frame))
        return event

    def add_output_batch(self, task_id: str, texts: list[str], stream: str) -> int:
        """Many task.output events for one task in one executemany (the burst path); each
        text is cut into pieces when --output-pieces is on. Returns the events appended."""
        assert self._in_tx
        if task_id not in self._saved_seqs:
            self._saved_seqs[task_id] = self.last_seq.get(task_id)
        texts = self._cut(task_id, texts)
        seq = self.last_seq.get(task_id, 0)
        eid = self.next_event_id
        # The same shape add_event produces, formatted directly: this path writes 10^5 events.
        head = ',"task_id":' + dumps(task_id) + ',"seq":'
        mid = ',"type":"task.output","ts":' + dumps(self._stamp(None)) + ',"data":{"text":'
        tail = ',"stream":' + dumps(stream) + "}}"
        rows = []
        pending = self._pending
        for text in texts:
            seq += 1
            frame = '{"event_id":' + str(eid) + head + str(seq) + mid + dumps(text) + tail
            rows.append((eid, task_id, seq, "task.output", frame))
            pending.append((task_id, seq, frame))
            eid += 1
        self.db.executemany("INSERT INTO events(event_id, task_id, seq, type, frame) VALUES(?,?,?,?,?)", rows)
        self.db.execute("UPDATE tasks SET last_seq=? WHERE id=?", (seq, task_id))
        self.next_event_id = eid
        self.last_seq[task_id] = seq
        return len(texts)

    def events_after(self, task_id: str, after_seq: int, limit: int) -> list[tuple[int, str]]:
        return self.db.execute(
            "SELECT seq, frame FROM events WHERE task_id=? AND seq>? ORDER BY seq LIMIT ?",
            (task_id, after_seq, limit)).fetchall()

    # ---- plain reads -------------------------------------------------------------------

    def one(self, sql: str, args=()) -> sqlite3.Row | None:
        return self.db.execute(sql, args).fetchone()

    def all(self, sql: str, args=()) -> list[sqlite3.Row]:
        return self.db.execute(sql, args).fetchall()

    def execute(self, sql: str, args=()) -> sqlite3.Cursor:
        return self.db.execute(sql, args)

    def close(self, checkpoint: bool = True) -> None:
        if checkpoint:
            try:
                self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error:
                pass
        self.db.close()


def load_json(text: str | None, default=None):
    if text is None:
        return default
    return json.loads(text)
