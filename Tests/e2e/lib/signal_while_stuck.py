"""Runs the dashboard on a pseudo-terminal that is never read, so the first large frame fills
the terminal's buffer and the UI thread blocks writing it; then sends a signal and waits for
the process to end. Prints how long it took; exits 0 when within the bound, 1 otherwise.

usage: signal_while_stuck.py BINARY SIGNAL BOUND_SECONDS  (the environment is passed on)"""
import fcntl
import os
import pty
import signal
import struct
import sys
import termios
import time

binary, signame, bound = sys.argv[1], sys.argv[2], float(sys.argv[3])
pid, fd = pty.fork()
if pid == 0:
    os.execv(binary, [binary])
# A big window makes the first frame larger than the terminal's buffer.
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 200, 400, 0, 0))
os.kill(pid, signal.SIGWINCH)
time.sleep(3)
started = time.monotonic()
os.kill(pid, getattr(signal, signame))
while time.monotonic() - started < bound:
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        print(f"ended {time.monotonic() - started:.2f}s after {signame}, status {os.waitstatus_to_exitcode(status)}")
        sys.exit(0)
    time.sleep(0.05)
print(f"still running {bound}s after {signame}")
os.kill(pid, signal.SIGKILL)
os.waitpid(pid, 0)
sys.exit(1)
