# A pretend terminal for the pixel tests (DESIGN §19.9): runs a command on a pseudo-terminal of
# COLUMNS x ROWS, answers the cell-size request and the primary device attributes as told, presses q after
# SECONDS, and writes everything the command wrote to the terminal on stdout.
#
# usage: pixel_terminal.py COLUMNS ROWS SECONDS ANSWER-DA1 ANSWER-CELL COMMAND...
# (an answer of "-" is never sent: the terminal stays silent.)
# With PRETEND_DECRPM_2027=Ps in the environment it also answers DECRQM for grapheme-cluster mode
# (DESIGN §3.6) with `CSI ? 2027 ; Ps $ y`; without it, that question goes unanswered as on tmux.
# With PRETEND_CTRL_Z=S it types ^Z after S seconds; with PRETEND_END=TERM it sends SIGTERM instead of
# pressing q.
import fcntl, os, pty, select, signal, struct, sys, termios, time

columns, rows, seconds = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
da1 = None if sys.argv[4] == "-" else sys.argv[4].encode().replace(b"^[", b"\x1b")
cell = None if sys.argv[5] == "-" else sys.argv[5].encode().replace(b"^[", b"\x1b")
command = sys.argv[6:]
decrpm = os.environ.pop("PRETEND_DECRPM_2027", None)
ctrl_z = os.environ.pop("PRETEND_CTRL_Z", None)
ctrl_z = None if ctrl_z is None else float(ctrl_z)
end_with_term = os.environ.pop("PRETEND_END", None) == "TERM"

pid, fd = pty.fork()
if pid == 0:
    os.environ["TERM"] = "xterm-256color"
    os.execvp(command[0], command)

fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
written = bytearray()
start = time.monotonic()
pressed = False
scanned = 0
while True:
    if ctrl_z is not None and time.monotonic() - start > ctrl_z:
        os.write(fd, b"\x1a")
        ctrl_z = None
    if not pressed and time.monotonic() - start > seconds:
        if end_with_term:
            os.kill(pid, signal.SIGTERM)
        else:
            os.write(fd, b"q")
        pressed = True
    if time.monotonic() - start > seconds + 10:
        os.kill(pid, signal.SIGKILL)
        break
    ready, _, _ = select.select([fd], [], [], 0.05)
    if not ready:
        continue
    try:
        data = os.read(fd, 65536)
    except OSError:
        break
    if not data:
        break
    written += data
    # Answer each question once, in the order asked, as terminals do.
    while True:
        at16 = written.find(b"\x1b[16t", scanned)
        atc = written.find(b"\x1b[c", scanned)
        atrqm = written.find(b"\x1b[?2027$p", scanned)
        hits = [h for h in (at16, atc, atrqm) if h >= 0]
        if not hits:
            break
        first = min(hits)
        if first == atrqm:
            if decrpm is not None:
                os.write(fd, b"\x1b[?2027;" + decrpm.encode() + b"$y")
            scanned = atrqm + 9
        elif first == at16:
            if cell:
                os.write(fd, cell)
            scanned = at16 + 5
        else:
            if da1:
                os.write(fd, da1)
            scanned = atc + 3
_, status = os.waitpid(pid, 0)
sys.stdout.buffer.write(bytes(written))
sys.exit(os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else 0)
