#!/usr/bin/env python3
"""tty_run.py ERRFILE CMD...: run CMD (the TUI) in a terminal of 100x30, its standard error into
ERRFILE; once its status line shows, quit it (q, then y if it asks). Exit with CMD's status, 124
when it neither started nor ended within 60 s."""
import fcntl, os, pty, select, signal, struct, subprocess, sys, termios, time

err, cmd = sys.argv[1], sys.argv[2:]
master, slave = pty.openpty()
fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
env = dict(os.environ, TERM="xterm")
with open(err, "wb") as e:
    p = subprocess.Popen(cmd, stdin=slave, stdout=slave, stderr=e, env=env, start_new_session=True)
os.close(slave)
seen, quit_at, t0 = b"", None, time.time()
while p.poll() is None:
    if time.time() - t0 > 60:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
        sys.exit(124)
    r, _, _ = select.select([master], [], [], 0.1)
    if r:
        try:
            seen = (seen + os.read(master, 65536))[-200000:]
        except OSError:
            pass
    if quit_at is None and b"unmapped" in seen:  # the status line: the UI runs
        os.write(master, b"q")
        quit_at = time.time()
    elif quit_at is not None and time.time() - quit_at > 1:
        os.write(master, b"y")  # it asked about unsaved rules
        quit_at = time.time()
sys.exit(p.returncode)
