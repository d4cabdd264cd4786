"""API keys: only their SHA-256 is stored; the secret exists in the client and in the one
answer to a refresh."""
from __future__ import annotations

import logging
import secrets

import util
from store import Store
from util import key_hash, mask_key

log = logging.getLogger("devserver")

LAST_USED_WRITE_S = 10.0


class Keys:
    def __init__(self, store: Store):
        self.store = store
        self._last_written: dict[int, float] = {}

    def install_demo_key(self, key: str, reset: bool) -> None:
        """A database with no usable key gets the demo key; `reset` makes the demo key the
        only usable key (for `make demo`, where the key comes from the command line)."""
        active = self.store.all("SELECT id FROM api_keys WHERE revoked_at IS NULL")
        now = util.now()
        h = key_hash(key)
        if active and not reset:
            if not self.store.one("SELECT 1 FROM api_keys WHERE key_hash=? AND revoked_at IS NULL", (h,)):
                log.info("the demo key %s is not valid in this database (rotated or revoked earlier); "
                         "use the current key or --reset-key", mask_key(key))
            return
        with self.store.tx():
            self.store.execute("UPDATE api_keys SET revoked_at=? WHERE revoked_at IS NULL", (now,))
            row = self.store.one("SELECT id FROM api_keys WHERE key_hash=?", (h,))
            if row:
                self.store.execute("UPDATE api_keys SET revoked_at=NULL WHERE id=?", (row["id"],))
            else:
                self.store.execute("INSERT INTO api_keys(key_hash, prefix, name, created_at) VALUES(?,?,?,?)",
                                   (h, key[:10], "demo key", now))

    def check(self, key: str | None) -> int | None:
        """The id of the usable key, or None."""
        if not key:
            return None
        row = self.store.one("SELECT id FROM api_keys WHERE key_hash=? AND revoked_at IS NULL", (key_hash(key),))
        if row is None:
            return None
        kid = row["id"]
        now = util.now()
        if now - self._last_written.get(kid, 0.0) >= LAST_USED_WRITE_S:
            self._last_written[kid] = now
            self.store.execute("UPDATE api_keys SET last_used_at=? WHERE id=?", (now, kid))
        return kid

    def is_revoked(self, key: str | None) -> bool:
        """True for a key that existed here and was revoked (a 401 then says so)."""
        if not key:
            return False
        return self.store.one("SELECT 1 FROM api_keys WHERE key_hash=? AND revoked_at IS NOT NULL",
                              (key_hash(key),)) is not None

    def rotate(self, current_id: int) -> tuple[str, int]:
        key = "mk_" + secrets.token_urlsafe(30).replace("-", "x").replace("_", "y")
        now = util.now()
        with self.store.tx():
            self.store.execute("UPDATE api_keys SET revoked_at=? WHERE id=?", (now, current_id))
            cur = self.store.execute(
                "INSERT INTO api_keys(key_hash, prefix, name, created_at, last_used_at) VALUES(?,?,?,?,?)",
                (key_hash(key), key[:10], "rotated key", now, now))
            new_id = cur.lastrowid
        log.debug("api key %d rotated to %d (%s)", current_id, new_id, mask_key(key))
        return key, new_id

    def revoke(self, key_id: int) -> None:
        self.store.execute("UPDATE api_keys SET revoked_at=? WHERE id=?", (util.now(), key_id))
        log.debug("api key %d revoked", key_id)

    def active(self):
        return self.store.all("SELECT * FROM api_keys WHERE revoked_at IS NULL ORDER BY id")
