#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Connections that do not belong to the job, against rdmx-run's PMI port.

pmi_flood.py DIR IDLE GARBAGE SECONDS

Waits for DIR/port ("addr:port", written by launch_gate.sh from the first
rank's PMI_PORT), opens IDLE connections that never send anything and GARBAGE
connections that send what a rank would not (wrong or missing secrets, binary
junk, over-long lines, a byte at a time, PMI requests without the hand-shake,
resets), writes DIR/ready, and keeps them up: a connection the launcher closes
is opened again after a short pause. It stops when DIR/stop appears, after
SECONDS, or after a fixed budget of connections, and writes DIR/report
("name value" lines). The target must be on the test's private network
(10.77.0.0/24), so nothing else can be reached by mistake."""
import errno
import heapq
import os
import random
import resource
import selectors
import socket
import struct
import sys
import time

BUDGET = 40000      # connections opened in all, at most
IDLE_PAUSE = 0.2    # before an idle connection the launcher closed is opened again
JUNK_PAUSE = 0.05
KINDS = ("wrong", "nosecret", "binary", "long", "trickle", "pmi", "reset")


def main():
    d, n_idle, n_junk, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    t_end = time.monotonic() + seconds
    port_file = os.path.join(d, "port")
    while not os.path.exists(port_file):
        if time.monotonic() > t_end:
            sys.exit("no PMI port to flood")
        time.sleep(0.05)
    host, port = open(port_file).read().strip().rsplit(":", 1)
    if not host.startswith("10.77.0."):
        sys.exit("refusing to connect to %s: not the test network" % host)
    target = (host, int(port))
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, n_idle + n_junk + 256)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))

    sel = selectors.DefaultSelector()
    st = {"opened": 0, "connect_failed": 0, "closed_by_launcher": 0, "idle_max_life": 0.0,
          "idle_closed": 0, "trickle_max_life": 0.0}
    replies = {}
    pending = []  # heap of (time, kind): connections to open again
    conns = {}    # socket -> state

    def open_one(kind):
        if st["opened"] >= BUDGET:
            return
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        st["opened"] += 1
        try:
            s.connect(target)
        except BlockingIOError:
            pass
        except OSError:
            st["connect_failed"] += 1
            s.close()
            heapq.heappush(pending, (time.monotonic() + JUNK_PAUSE, kind))
            return
        c = {"kind": kind, "t0": time.monotonic(), "connected": False, "sent": False,
             "next_byte": 0.0, "buf": b""}
        conns[s] = c
        sel.register(s, selectors.EVENT_READ | selectors.EVENT_WRITE, c)

    def close_one(s, by_launcher):
        c = conns.pop(s)
        sel.unregister(s)
        life = time.monotonic() - c["t0"]
        if by_launcher:
            st["closed_by_launcher"] += 1
            for line in c["buf"].decode("ascii", "replace").splitlines():
                for tok in line.split():
                    if tok.startswith("msg="):
                        replies[tok[4:]] = replies.get(tok[4:], 0) + 1
            if c["kind"] == "idle" and c["connected"]:
                st["idle_closed"] += 1
                st["idle_max_life"] = max(st["idle_max_life"], life)
            if c["kind"] == "trickle":
                st["trickle_max_life"] = max(st["trickle_max_life"], life)
        s.close()
        pause = IDLE_PAUSE if c["kind"] == "idle" else JUNK_PAUSE
        heapq.heappush(pending, (time.monotonic() + pause, c["kind"]))

    def payload(kind):
        rank = random.randrange(4)
        if kind == "wrong":
            return ("cmd=initack pmiid=%d secret=%032x\n" % (rank, random.getrandbits(128))).encode()
        if kind == "nosecret":
            return ("cmd=initack pmiid=%d\n" % rank).encode()
        if kind == "binary":
            return os.urandom(200) + b"\n"
        if kind == "long":
            return b"cmd=initack pmiid=0 secret=" + b"a" * 4000
        if kind == "pmi":
            return b"cmd=init pmi_version=1 pmi_subversion=1\ncmd=get_maxes\n"
        return b""

    for i in range(n_idle):
        open_one("idle")
    for i in range(n_junk):
        open_one(KINDS[i % len(KINDS)])
    # ready once the idle ones are connected (or after 5 s)
    t_ready = time.monotonic() + 5
    ready = False
    while time.monotonic() < t_end:
        now = time.monotonic()
        if not ready and (now > t_ready or sum(1 for c in conns.values()
                                               if c["kind"] == "idle" and c["connected"]) >= n_idle):
            st["idle_connected_at_ready"] = sum(1 for c in conns.values()
                                                if c["kind"] == "idle" and c["connected"])
            open(os.path.join(d, "ready"), "w").close()
            ready = True
        if ready and os.path.exists(os.path.join(d, "stop")):
            break
        while pending and pending[0][0] <= now:
            open_one(heapq.heappop(pending)[1])
        for key, ev in sel.select(timeout=0.05):
            s, c = key.fileobj, key.data
            if not c["connected"] and ev & selectors.EVENT_WRITE:
                err = s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
                if err:
                    st["connect_failed"] += 1
                    close_one(s, False)
                    continue
                c["connected"] = True
                sel.modify(s, selectors.EVENT_READ, c)
                if c["kind"] == "reset":
                    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    close_one(s, False)
                    continue
                data = payload(c["kind"])
                if data:
                    try:
                        s.send(data)
                    except OSError:
                        pass
                continue
            if ev & selectors.EVENT_READ:
                try:
                    data = s.recv(4096)
                except OSError as e:
                    data = b"" if e.errno in (errno.ECONNRESET, errno.EPIPE) else None
                if data is None:
                    continue
                if data:
                    c["buf"] += data
                    continue
                close_one(s, True)
        # the slow sender: one byte of a valid-looking line every 0.3 s
        for s, c in list(conns.items()):
            if c["kind"] == "trickle" and c["connected"] and now >= c["next_byte"]:
                c["next_byte"] = now + 0.3
                try:
                    s.send(b"c")
                except OSError:
                    pass
    st["open_at_end"] = len(conns)
    for s in list(conns):
        s.close()
    with open(os.path.join(d, "report"), "w") as f:
        for k, v in sorted(st.items()):
            f.write("%s %s\n" % (k, round(v, 2) if isinstance(v, float) else v))
        for k, v in sorted(replies.items()):
            f.write("reply_%s %d\n" % (k, v))


if __name__ == "__main__":
    main()
