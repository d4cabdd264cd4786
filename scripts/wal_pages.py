#!/usr/bin/env python3
"""Which tables and indexes a cache's commits write, counted in WAL frames (pages).

Usage: scripts/wal_pages.py CACHE_FILE [SECONDS]

Attaches to a cache another process is writing (the dashboard, or `makima-tui bench
cache-stream` with TMPDIR set so its file can be found), holds a read transaction for SECONDS
(20 by default) so the -wal is not restarted under it, then reads every frame the writer
appended meanwhile and names the b-tree each page belongs to (`dbstat`, read once the hold
ends). A page that is in no b-tree then is a free page or a pointer-map page; a frame whose
page is zeros after its first 8 bytes is a page wiped as it was freed (`secure_delete`).
Prints frames, commits and bytes per owner. A diagnostic, not a bench: the held reader keeps
checkpoints from copying those frames, so `write_bytes` is not what it measures.
"""
from __future__ import annotations

import collections
import os
import sqlite3
import struct
import sys
import time


def frames(wal: bytes, page_size: int, start: int):
    """(frame index, page number, commit flag, page bytes) of the valid frames from `start`."""
    salt = wal[16:24]
    size = 24 + page_size
    i = start
    while 32 + (i + 1) * size <= len(wal):
        at = 32 + i * size
        pgno, commit = struct.unpack(">II", wal[at:at + 8])
        if wal[at + 8:at + 16] != salt:
            break
        yield i, pgno, commit != 0, wal[at + 24:at + size]
        i += 1


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__)
        return 2
    path = sys.argv[1]
    hold = float(sys.argv[2]) if len(sys.argv) > 2 else 20.0
    reader = sqlite3.connect(path, isolation_level=None, timeout=10)
    page_size = reader.execute("PRAGMA page_size").fetchone()[0]
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM sqlite_schema").fetchone()
    with open(path + "-wal", "rb") as f:
        start = max(0, (len(f.read()) - 32) // (24 + page_size))
    time.sleep(hold)
    with open(path + "-wal", "rb") as f:
        wal = f.read()
    seen = list(frames(wal, page_size, start))
    reader.execute("COMMIT")
    owner = {pgno: name for name, pgno in reader.execute("SELECT name, pageno FROM dbstat")}
    reader.close()
    count: collections.Counter[str] = collections.Counter()
    commits = 0
    for _, pgno, commit, page in seen:
        commits += commit
        if page[8:].count(0) == len(page) - 8:
            count["(wiped free page)"] += 1
        else:
            count[owner.get(pgno, "(free list or pointer map)")] += 1
    total = sum(count.values())
    print(f"{total} frames, {commits} commits over {hold:.0f} s ({total * (page_size + 24)} bytes)")
    for name, n in count.most_common():
        print(f"{n:8d} {100 * n / max(1, total):5.1f} % {n / max(1, commits):6.1f}/commit  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
