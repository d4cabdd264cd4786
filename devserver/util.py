"""Small helpers shared by the dev server modules: the server's clock, time formats, JSON,
key masking."""
from __future__ import annotations

import datetime as _dt
import email.utils
import hashlib
import ipaddress
import json
import time
import uuid
from random import Random

VERSION = "0.1.0"
SERVER_NAME = "makima-devserver"

# Seconds the server's clock is off the real one (--clock-offset; negative: behind). Every
# timestamp the server writes or serves, and the Date header of every response, come from
# now(), as on a mesh host whose clock has drifted.
_clock_offset = 0.0


def set_clock_offset(seconds: float) -> None:
    global _clock_offset
    _clock_offset = float(seconds)


def clock_offset() -> float:
    return _clock_offset


def now() -> float:
    """The server's clock: the real time plus --clock-offset."""
    return time.time() + _clock_offset


def http_date(t: float) -> str:
    """An HTTP `Date` value (RFC 9110 IMF-fixdate): `Tue, 01 Dec 2026 22:48:32 GMT`."""
    return email.utils.formatdate(t, usegmt=True)


_UTC = _dt.timezone.utc
_JST = _dt.timezone(_dt.timedelta(hours=9))


def rfc3339(t: float | None, style: str = "s") -> str | None:
    """Formats an epoch time. The styles differ on purpose, so clients meet every RFC 3339
    form docs/api.md allows: "s" = 2026-11-29T17:08:24Z, "ms" = …24.123Z, "us" = …24.123456Z,
    "jst" = …24+09:00 (no fraction)."""
    if t is None:
        return None
    if style == "jst":
        return _dt.datetime.fromtimestamp(int(t), _JST).isoformat()
    d = _dt.datetime.fromtimestamp(t, _UTC)
    base = d.strftime("%Y-%m-%dT%H:%M:%S")
    if style == "ms":
        return f"{base}.{d.microsecond // 1000:03d}Z"
    if style == "us":
        return f"{base}.{d.microsecond:06d}Z"
    return base + "Z"


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def dumps(value) -> str:
    """Compact JSON with UTF-8 text kept as is (Japanese stays readable on the wire);
    control characters are still escaped as JSON requires."""
    return _ENCODER.encode(value)


def det_uuid(rng: Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def mask_key(key: str | None) -> str:
    if not key:
        return "<none>"
    return "mk_…" + key[-4:]


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()


def is_loopback_host(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def is_loopback_peer(remote: str | None) -> bool:
    if not remote:
        return False
    try:
        addr = ipaddress.ip_address(remote.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(addr, ipaddress.IPv6Address) and addr.ipv4_mapped is not None:
        addr = addr.ipv4_mapped
    return addr.is_loopback
