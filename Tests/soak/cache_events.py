"""The dashboard's cached events read from its cache file, for the soak's comparisons.

Events are kept in chunks (Sources/MakimaKit/Cache/EventChunk.swift): a row of `task_chunks`
holds a gapless run of one task's events, `first_seq..last_seq`, their output texts one after
the other in `text` and the rest packed in `pieces` (a format byte, then a record an event:
a varint header, kind in its low two bits, 4 when a time follows; output records a zigzag
event-id difference, the time's in milliseconds, the stream when it changes, the text's
length; other events their wire JSON). A row whose `pieces` starts with `{` is one event's
JSON. Each event is given back as the wire JSON the client would have kept for it.
"""

import json
import sqlite3
from datetime import datetime, timezone


def read_db(path, query, args=()):
    """Rows of `query` on the SQLite file at `path`, opened read-only."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=10)
    try:
        return db.execute(query, args).fetchall()
    finally:
        db.close()


def _varint(b, i):
    value = shift = 0
    while True:
        byte = b[i]
        i += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, i
        shift += 7


def _zigzag(v):
    return (v >> 1) ^ -(v & 1)


def _ts(millis):
    dt = datetime.fromtimestamp(millis // 1000, tz=timezone.utc)
    return dt.strftime("%Y-%m-%dT%H:%M:%S") + f".{millis % 1000:03d}Z"


def decode_chunk(task, first, last, text, pieces):
    """[(seq, wire JSON)] of one row; raises on a damaged row."""
    pieces = bytes(pieces)
    text = text.encode() if isinstance(text, str) else bytes(text or b"")
    if pieces[:1] == b"{":
        return [(first, pieces.decode())]
    assert pieces[0] == 1, "unknown chunk format"
    out, i, at, eid, millis, stream = [], 1, 0, 0, 0, "assistant"
    for seq in range(first, last + 1):
        header, i = _varint(pieces, i)
        if header & 3 == 2:
            n, i = _varint(pieces, i)
            out.append((seq, pieces[i:i + n].decode()))
            i += n
            continue
        d, i = _varint(pieces, i)
        eid += _zigzag(d)
        event = {"event_id": eid, "task_id": task, "seq": seq, "type": "task.output"}
        if header & 4:
            d, i = _varint(pieces, i)
            millis += _zigzag(d)
            event["ts"] = _ts(millis)
        if header & 3 == 1:
            n, i = _varint(pieces, i)
            stream = pieces[i:i + n].decode()
            i += n
        n, i = _varint(pieces, i)
        event["data"] = {"text": text[at:at + n].decode(), "stream": stream}
        at += n
        out.append((seq, json.dumps(event)))
    assert i == len(pieces) and at == len(text), "chunk lengths do not add up"
    return out


def cached_tasks(path):
    """The tasks with events in the cache."""
    return {t for (t,) in read_db(path, "SELECT a.task_id FROM task_activity a WHERE EXISTS "
                                        "(SELECT 1 FROM task_chunks c WHERE c.num = a.num)")}


def cached_events(path, task, up_to, keep):
    """[(seq, wire JSON)] of `task` with seq <= `up_to`, within its window of `keep` seqs."""
    rows = read_db(path, "SELECT c.first_seq, c.last_seq, c.text, c.pieces FROM task_chunks c "
                         "JOIN task_activity a ON a.num = c.num WHERE a.task_id = ? ORDER BY c.last_seq", (task,))
    if not rows:
        return []
    floor = max(r[1] for r in rows) - keep
    events = []
    for first, last, text, pieces in rows:
        events += [(s, j) for s, j in decode_chunk(task, first, last, text, pieces) if floor < s <= up_to]
    return events
