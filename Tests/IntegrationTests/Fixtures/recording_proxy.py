#!/usr/bin/env python3
"""A stand-in HTTP proxy for the client's tests: it records the first bytes of every
connection (a CONNECT line, or a whole proxied request) to a file and refuses it with 403.

Usage: recording_proxy.py LOGFILE   (listens on 127.0.0.1, port 0)
Prints `READY <port>` once listening; ends when its stdin closes.
"""
import socket
import sys
import threading


def serve(listener, log_path):
    while True:
        try:
            conn, _ = listener.accept()
        except OSError:
            return
        with conn:
            conn.settimeout(5)
            data = b""
            try:
                while b"\r\n\r\n" not in data and len(data) < 65536:
                    chunk = conn.recv(4096)
                    if not chunk:
                        break
                    data += chunk
            except OSError:
                pass
            with open(log_path, "ab") as log:
                log.write(data + b"\n---\n")
            try:
                conn.sendall(b"HTTP/1.1 403 Forbidden\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            except OSError:
                pass


def main():
    log_path = sys.argv[1]
    open(log_path, "wb").close()
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    threading.Thread(target=serve, args=(listener, log_path), daemon=True).start()
    print(f"READY {listener.getsockname()[1]}", flush=True)
    sys.stdin.read()


if __name__ == "__main__":
    main()
