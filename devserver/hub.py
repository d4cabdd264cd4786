"""WebSocket subscribers: fan-out of committed events, resync replay, test-control frames.

Ordering rule per connection: a subscriber is registered (and starts queueing every
committed event) before its resync is read. A resync replays stored events after the
client's seqs while live events keep queueing; afterwards the queue is drained with a
per-task high-water mark, so an event that was both replayed and queued is sent once, and
nothing committed after the connection opened can be missed.
"""
from __future__ import annotations

import asyncio
import json
import logging
from collections import deque

from aiohttp import WSMsgType, web

from faults import FaultState
from store import Store

log = logging.getLogger("devserver")

REPLAY_PAGE = 1000
SEND_BATCH = 512
# A subscriber this far behind is cut off (it reconnects and resyncs) instead of holding
# unbounded memory.
MAX_QUEUE = 1_500_000
# A client that sends no resync within this time is treated as having sent an empty one.
RESYNC_GRACE_S = 5.0


class Raw:
    """A frame sent as is (test controls): not an event, no seq bookkeeping."""
    __slots__ = ("payload", "opcode")

    def __init__(self, payload: bytes, opcode: WSMsgType):
        self.payload, self.opcode = payload, opcode


class Blob:
    """Pre-encoded WebSocket frames written to the socket in one go (benchmark bursts)."""
    __slots__ = ("data", "events")

    def __init__(self, data: bytes, events: int):
        self.data, self.events = data, events


class Subscriber:
    def __init__(self, ws: web.WebSocketResponse, request: web.Request):
        self.ws = ws
        self.transport = request.transport
        self.peer = request.remote
        self.queue: deque = deque()
        self.wake = asyncio.Event()
        self.resyncs: deque[dict] = deque()
        self.live = False
        self.high_water: dict[str, int] = {}
        self.sent_events = 0
        self.replayed = 0
        self.resync_count = 0

    def abort(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.abort()
        self.wake.set()


class Hub:
    def __init__(self, store: Store, faults: FaultState):
        self.store = store
        # Poisoned frames and a withheld resync.done (the hostile modes) act here.
        self.faults = faults
        self.subscribers: set[Subscriber] = set()

    async def _send_event(self, ws: web.WebSocketResponse, task_id: str, seq: int, frame: str) -> None:
        poisoned = self.faults.poisoned
        raw = poisoned.get((task_id, seq)) if poisoned else None
        if raw is None:
            await ws.send_str(frame)
        else:
            await ws.send_frame(raw, WSMsgType.TEXT)

    def publish(self, items: list[tuple[str, int, str]]) -> None:
        if not items or not self.subscribers:
            return
        for sub in list(self.subscribers):
            sub.queue.extend(items)
            if len(sub.queue) > MAX_QUEUE:
                log.warning("ws %s: %d events behind, dropping the connection", sub.peer, len(sub.queue))
                sub.queue.clear()
                sub.abort()
                self.subscribers.discard(sub)
                continue
            sub.wake.set()

    def send_raw(self, payload: bytes, opcode: WSMsgType) -> int:
        frame = Raw(payload, opcode)
        for sub in self.subscribers:
            sub.queue.append(frame)
            sub.wake.set()
        return len(self.subscribers)

    def send_blob(self, data: bytes, events: int) -> int:
        blob = Blob(data, events)
        live = [sub for sub in self.subscribers if sub.live]
        for sub in live:
            sub.queue.append(blob)
            sub.wake.set()
        return len(live)

    def drop_all(self) -> int:
        subs = list(self.subscribers)
        for sub in subs:
            sub.abort()
        self.subscribers.clear()
        return len(subs)

    async def close_all(self) -> None:
        async def close(sub: Subscriber) -> None:
            try:
                await asyncio.wait_for(sub.ws.close(code=1001, message=b"server shutting down"), 1.0)
            except Exception:  # noqa: BLE001 - best effort on shutdown
                sub.abort()

        subs = list(self.subscribers)
        self.subscribers.clear()
        await asyncio.gather(*(close(s) for s in subs))

    # ---- one connection ----------------------------------------------------------------

    async def serve(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=20.0, autoping=True, compress=False, max_msg_size=1 << 20)
        await ws.prepare(request)
        sub = Subscriber(ws, request)
        self.subscribers.add(sub)
        sender = asyncio.create_task(self._send_loop(sub))
        try:
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    self._on_client_text(sub, msg.data)
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            self.subscribers.discard(sub)
            sender.cancel()
            try:
                await sender
            except (asyncio.CancelledError, Exception):  # noqa: BLE001 - the peer is gone
                pass
            # The access log line for this request carries it (one line per request).
            request["log_note"] = f"ws: {sub.sent_events} events sent, {sub.replayed} replayed, {sub.resync_count} resyncs"
        return ws

    def _on_client_text(self, sub: Subscriber, text: str) -> None:
        try:
            msg = json.loads(text)
        except ValueError:
            log.debug("ws %s: ignored a non-JSON message", sub.peer)
            return
        if not isinstance(msg, dict) or msg.get("type") != "resync":
            log.debug("ws %s: ignored a message of type %r", sub.peer, msg.get("type") if isinstance(msg, dict) else None)
            return
        raw = msg.get("last_seen") or {}
        last_seen: dict[str, int] = {}
        if isinstance(raw, dict):
            for task_id, seq in raw.items():
                try:
                    last_seen[str(task_id)] = max(0, int(seq))
                except (TypeError, ValueError):
                    last_seen[str(task_id)] = 0
        sub.resyncs.append(last_seen)
        sub.wake.set()

    async def _send_loop(self, sub: Subscriber) -> None:
        loop = asyncio.get_running_loop()
        grace_until = loop.time() + RESYNC_GRACE_S
        ws = sub.ws
        try:
            while not ws.closed:
                sub.wake.clear()
                if sub.resyncs:
                    await self._replay(sub, sub.resyncs.popleft())
                    if not self.faults.withhold_resync_done:
                        await ws.send_str('{"type":"resync.done"}')
                    sub.live = True
                    continue
                if sub.live and sub.queue:
                    await self._drain(sub)
                    continue
                if not sub.live:
                    remaining = grace_until - loop.time()
                    if remaining <= 0:
                        log.debug("ws %s: no resync received, streaming live events only", sub.peer)
                        sub.live = True
                        continue
                    try:
                        await asyncio.wait_for(sub.wake.wait(), remaining)
                    except asyncio.TimeoutError:
                        pass
                    continue
                await sub.wake.wait()
        except (ConnectionError, RuntimeError) as e:
            log.debug("ws %s: send failed (%s)", sub.peer, type(e).__name__)
            sub.abort()
        except Exception:  # noqa: BLE001 - a sender that stops must not leave a silent connection
            log.exception("ws %s: sender failed; dropping the connection", sub.peer)
            sub.abort()

    async def _drain(self, sub: Subscriber) -> None:
        queue, high_water, ws = sub.queue, sub.high_water, sub.ws
        sent = 0
        while queue and not sub.resyncs and sent < SEND_BATCH:
            item = queue.popleft()
            if isinstance(item, Blob):
                # Uncompressed connection: the frames go straight to the transport, which
                # buffers what the socket does not take yet.
                if sub.transport is not None and not sub.transport.is_closing():
                    sub.transport.write(item.data)
                sub.sent_events += item.events
                sent += 1
                continue
            if isinstance(item, Raw):
                await ws.send_frame(item.payload, item.opcode)
                sent += 1
                continue
            task_id, seq, frame = item
            hw = high_water.get(task_id)
            if hw is not None and seq <= hw:
                continue
            await self._send_event(ws, task_id, seq, frame)
            sub.sent_events += 1
            sent += 1
        if sent == 0:
            await asyncio.sleep(0)

    async def _replay(self, sub: Subscriber, last_seen: dict[str, int]) -> None:
        store, ws = self.store, sub.ws
        replayed = 0
        for task_id, seen in last_seen.items():
            if task_id not in store.last_seq:
                continue
            cursor = seen
            while True:
                rows = store.events_after(task_id, cursor, REPLAY_PAGE)
                if not rows:
                    # No await between this empty read and recording the mark: every event
                    # of this task with a higher seq is committed later, hence queued.
                    sub.high_water[task_id] = store.last_seq.get(task_id, 0)
                    break
                for seq, frame in rows:
                    await self._send_event(ws, task_id, seq, frame)
                cursor = rows[-1][0]
                replayed += len(rows)
        sub.sent_events += replayed
        sub.replayed += replayed
        sub.resync_count += 1
