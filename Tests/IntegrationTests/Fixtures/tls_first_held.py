#!/usr/bin/env python3
"""A TLS server that holds every connection's handshake but one: the first connection waits
until `--others` more have arrived (each held without a byte, so its handshake never ends),
then gets the TLS handshake with the given certificate (which the client does not trust, so
it fails at once). A client that exits on that first failure then provably has `--others`
transfers inside their handshakes.

Usage: tls_first_held.py --cert PEM --key PEM --others N --log FILE
Prints `READY <port>`; writes `held <n>` to FILE when it lets the first handshake go; ends when
its stdin closes.
"""
import argparse
import socket
import ssl
import sys
import threading
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cert", required=True)
    parser.add_argument("--key", required=True)
    parser.add_argument("--others", type=int, default=4)
    parser.add_argument("--log", required=True)
    args = parser.parse_args()
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(args.cert, args.key)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    held = []
    first = []
    lock = threading.Condition()

    def accept():
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return
            with lock:
                (held if first else first).append(conn)
                lock.notify_all()

    def release_first():
        with lock:
            # Bounded: a client that opens fewer connections still gets its answer.
            deadline = time.monotonic() + 30
            while (not first or len(held) < args.others) and time.monotonic() < deadline:
                lock.wait(0.1)
            n = len(held)
        with open(args.log, "w") as log:
            log.write(f"held {n}\n")
        if first:
            try:
                context.wrap_socket(first[0], server_side=True)
            except (OSError, ssl.SSLError):
                pass  # the client refuses the certificate: expected

    threading.Thread(target=accept, daemon=True).start()
    threading.Thread(target=release_first, daemon=True).start()
    print(f"READY {listener.getsockname()[1]}", flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main()
