#!/usr/bin/env python3
"""A WebSocket peer for the client's integration tests. Each path is one behaviour.

Usage: ws_peer.py [--cert PEM --key PEM]   (listens on 127.0.0.1, port 0)
Prints `READY <port>` on stdout once listening.

Where aiohttp cannot produce what a test needs (fragments, invalid UTF-8, a wrong accept
value, a frame in the same packet as the 101 answer) frames are written raw on the socket.
"""
import argparse
import asyncio
import base64
import hashlib
import ssl
import struct
import sys

from aiohttp import WSMsgType, web

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
TEXT, BINARY, CONT, CLOSE, PING = 0x1, 0x2, 0x0, 0x8, 0x9


def frame(opcode, payload, fin=True):
    """A server frame (unmasked)."""
    head = bytes([(0x80 if fin else 0) | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([n])
    elif n < 65536:
        head += bytes([126]) + struct.pack("!H", n)
    else:
        head += bytes([127]) + struct.pack("!Q", n)
    return head + payload


def close_frame(code, reason=b""):
    return frame(CLOSE, struct.pack("!H", code) + reason)


def accept_for(request):
    key = request.headers.get("Sec-WebSocket-Key", "").encode()
    return base64.b64encode(hashlib.sha1(key + GUID).digest()).decode()


def raw_upgrade(request, accept):
    return (
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Accept: {accept}\r\n\r\n"
    ).encode()


async def open_ws(request, **kw):
    ws = web.WebSocketResponse(**kw)
    await ws.prepare(request)
    return ws


async def drain(ws):
    async for _ in ws:
        pass


async def echo(request):
    ws = await open_ws(request, max_msg_size=64 << 20)
    async for msg in ws:
        if msg.type == WSMsgType.TEXT:
            await ws.send_str(msg.data)
        elif msg.type == WSMsgType.BINARY:
            await ws.send_bytes(msg.data)
    return ws


async def send_many(request):
    """n messages of `size` bytes (`x` padding after a counter), then close 1000."""
    n = int(request.query.get("n", "10"))
    size = int(request.query.get("size", "16"))
    ws = await open_ws(request)
    for i in range(n):
        head = f"{i}:"
        await ws.send_str(head + "x" * max(size - len(head), 0))
    await ws.close(code=1000, message=b"done")
    return ws


async def blast(request):
    """n copies of one pre-built text frame written in bulk (for throughput: the peer's own
    per-message cost stays out of the figure), then close 1000."""
    n = int(request.query.get("n", "1000"))
    size = int(request.query.get("size", "64"))
    ws = await open_ws(request)
    t = request.transport
    one = frame(TEXT, b"b" * size)
    per_write = max(1, (256 * 1024) // len(one))
    sent = 0
    while sent < n:
        k = min(per_write, n - sent)
        t.write(one * k)
        sent += k
        while t.get_write_buffer_size() > 4 * 1024 * 1024 and not t.is_closing():
            await asyncio.sleep(0.0005)
    t.write(close_frame(1000, b"done"))
    await drain(ws)
    return ws


async def ping_flood(request):
    """Pings as fast as the socket takes them and never reads: every pong the client owes
    piles up on its side. Stops when the client leaves (or after `limit` seconds)."""
    ws = await open_ws(request)
    t = request.transport
    t.pause_reading()
    pings = frame(PING, b"flood-payload-0123456789" * 5) * 2048
    loop = asyncio.get_running_loop()
    stop_at = loop.time() + float(request.query.get("limit", "60"))
    # 2048 pings per 5 ms is far more than the client may queue (1,024 messages), and leaves
    # this shared peer's loop free for the other tests running meanwhile.
    while not t.is_closing() and loop.time() < stop_at:
        if t.get_write_buffer_size() < 1024 * 1024:
            t.write(pings)
        await asyncio.sleep(0.005)
    t.abort()
    return ws


async def binary(request):
    ws = await open_ws(request)
    await ws.send_bytes(bytes(range(256)))
    await ws.close(code=1000, message=b"done")
    return ws


async def huge(request):
    """A message over the client's cap, then a small one the client must never see."""
    size = int(request.query.get("size", str(10_000_000)))
    ws = await open_ws(request)
    try:
        await ws.send_str("y" * size)
        await ws.send_str("after-huge")
    except ConnectionError:
        pass
    await drain(ws)
    return ws


async def fragmented(request):
    """'fragmented' in three frames with a ping between them, then close 1000."""
    ws = await open_ws(request)
    t = request.transport
    t.write(frame(TEXT, b"frag", fin=False))
    await asyncio.sleep(0.05)
    t.write(frame(PING, b"mid") + frame(CONT, b"men", fin=False))
    await asyncio.sleep(0.05)
    t.write(frame(CONT, b"ted"))
    t.write(frame(TEXT, "日本語".encode()[:4], fin=False) + frame(CONT, "日本語".encode()[4:]))
    t.write(close_frame(1000, b"fragments done"))
    await drain(ws)
    return ws


async def server_ping(request):
    """Pings with a payload; reports the pong payload back as a text, then closes."""
    ws = await open_ws(request, autoping=False)
    await ws.ping(b"are-you-there")
    async for msg in ws:
        if msg.type == WSMsgType.PONG:
            await ws.send_str("pong:" + msg.data.decode())
            await ws.close(code=1000)
            break
    return ws


async def close_4001(request):
    ws = await open_ws(request)
    await ws.send_str("before-close")
    await ws.close(code=4001, message=b"bye \x1b[31mred")
    return ws


async def reject(request):
    status = int(request.query.get("status", "401"))
    return web.Response(status=status, text='{"error":"rejected"}')


async def until_client_leaves(request, limit=30.0):
    waited = 0.0
    while not request.transport.is_closing() and waited < limit:
        await asyncio.sleep(0.05)
        waited += 0.05


async def hijack(request, payload):
    """Writes raw bytes instead of an aiohttp answer, waits for the client to go."""
    t = request.transport
    t.write(payload)
    await until_client_leaves(request)
    t.close()
    raise asyncio.CancelledError


async def bad_accept(request):
    await hijack(request, raw_upgrade(request, base64.b64encode(b"0" * 20).decode()))


async def early_frame(request):
    """The 101 answer and the first frames in one write: the client must keep the leftover."""
    await hijack(request, raw_upgrade(request, accept_for(request)) + frame(TEXT, b"early") + close_frame(1000))


async def silent(request):
    """Never reads, so never answers pings: the client's liveness check must fire."""
    ws = await open_ws(request, autoping=False)
    await until_client_leaves(request, limit=300)
    return ws


async def invalid_utf8(request):
    ws = await open_ws(request)
    t = request.transport
    t.write(frame(TEXT, b"before") + frame(TEXT, b"bad \xff\xfe end") + frame(TEXT, b"after") + close_frame(1000))
    await drain(ws)
    return ws


async def headers(request):
    ws = await open_ws(request)
    expect = request.query.get("expect", "")
    got = request.headers.get("x-makima-api-key", "")
    await ws.send_str("key-ok" if got == expect and got else "key-mismatch")
    await ws.send_str("target:" + request.path_qs)
    await ws.send_str("extra:" + request.headers.get("x-extra", ""))
    await drain(ws)
    return ws


async def drop(request):
    """Answers the client's first message, then drops the TCP connection without a close."""
    ws = await open_ws(request)
    msg = await ws.receive()
    if msg.type == WSMsgType.TEXT:
        await ws.send_str("got:" + msg.data)
        await asyncio.sleep(0.05)
    request.transport.abort()
    return ws


async def announce_huge(request):
    """A text frame whose header announces `size` bytes (64 MiB unless said), then 1 KiB of
    it, then nothing: the client must refuse it on the header, not wait or allocate."""
    size = int(request.query.get("size", str(64 * 1024 * 1024)))
    head = bytes([0x80 | TEXT, 127]) + struct.pack("!Q", size)
    await hijack(request, raw_upgrade(request, accept_for(request)) + frame(TEXT, b"before") + head + b"y" * 1024)


async def odd_close(request):
    """A close frame with the payload given in hex (`payload=03e8` is 1000, no reason)."""
    payload = bytes.fromhex(request.query.get("payload", ""))
    await hijack(request, raw_upgrade(request, accept_for(request)) + frame(TEXT, b"before") + frame(CLOSE, payload))


async def bytewise(request):
    """Every byte of the answer in a segment of its own: the 101 head, a small text, a text of
    300 bytes (16-bit length), a message in fragments cut inside a character, a ping, a close."""
    sock = request.transport.get_extra_info("socket")
    if sock is not None:
        import socket

        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    word = "日本語".encode()
    data = (
        raw_upgrade(request, accept_for(request))
        + frame(TEXT, b"split")
        + frame(TEXT, b"z" * 300)
        + frame(TEXT, word[:2], fin=False)
        + frame(PING, b"mid")
        + frame(CONT, word[2:])
        + close_frame(1000, b"bytewise")
    )
    t = request.transport
    for i in range(len(data)):
        t.write(data[i : i + 1])
        await asyncio.sleep(0.001)
    await until_client_leaves(request)
    t.close()
    raise asyncio.CancelledError


def make_app():
    app = web.Application()
    routes = {
        "/echo": echo, "/send": send_many, "/blast": blast, "/binary": binary, "/huge": huge, "/fragmented": fragmented,
        "/ping": server_ping, "/close4001": close_4001, "/reject": reject, "/badaccept": bad_accept,
        "/early": early_frame, "/silent": silent, "/invalid_utf8": invalid_utf8, "/headers": headers,
        "/drop": drop, "/ping_flood": ping_flood, "/announce_huge": announce_huge, "/odd_close": odd_close,
        "/bytewise": bytewise,
    }
    for path, handler in routes.items():
        app.router.add_get(path, handler)
    return app


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert")
    parser.add_argument("--key")
    args = parser.parse_args()
    context = None
    if args.cert:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.cert, args.key)
    runner = web.AppRunner(make_app(), access_log=None, handle_signals=False, shutdown_timeout=1)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0, ssl_context=context)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]
    print(f"READY {port}", flush=True)
    # Ends when the test closes our stdin (or dies): no orphan peers.
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)
    await runner.cleanup()


if __name__ == "__main__":
    asyncio.run(main())
