"""A scripted Hub engine for the tests: it knows no draughts, only the script it is given.

    python fake_hub.py SCRIPT.json

The script (JSON) says what to answer:

* ``name``, ``version``, ``params`` (a list of ``param`` lines' arguments);
* ``positions``: Hub position string -> ``{"score", "depth", "nodes", "move", "pv"}`` (the
  ``info`` and ``done`` lines of a search of that position; ``move`` and ``pv`` as Hub writes
  them, ``pv`` optional);
* ``default``: the answer for any other position (absent: an ``error`` line);
* ``crash_on`` / ``hang_on`` / ``garbage_on``: positions where the engine exits with status
  3 (after a line on stderr), sleeps an hour, or prints junk and a move that does not exist;
* ``delay``: seconds to think before each answer; ``crash_always``: exit on every ``go``; ``handshake``: ``"hang"``, ``"crash"`` or
  ``"silent"`` (lines that are no Hub answers, never ``wait``) instead of the handshake;
* ``pidfile``: a file to append this process's pid to at start; ``log``: a file to append
  every line received to.
"""

from __future__ import annotations

import json
import os
import sys
import time


def say(*lines: str) -> None:
    sys.stdout.write("".join(line + "\n" for line in lines))
    sys.stdout.flush()


def answer(entry: dict) -> None:
    info = [f"depth={entry.get('depth', 1)}", f"score={entry['score']}",
            f"nodes={entry.get('nodes', 1)}"]
    if entry.get("pv"):
        info.append(f'pv="{entry["pv"]}"')
    say("info " + " ".join(info), f"done move={entry['move']}")


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as fh:
        script = json.load(fh)
    if script.get("pidfile"):
        with open(script["pidfile"], "a", encoding="utf-8") as fh:
            fh.write(f"{os.getpid()}\n")
    log = open(script["log"], "a", encoding="utf-8") if script.get("log") else None  # noqa: SIM115
    position = None
    for raw in sys.stdin:
        line = raw.strip()
        if log is not None:
            log.write(line + "\n")
            log.flush()
        if not line:
            continue
        cmd, _, rest = line.partition(" ")
        if cmd == "hub":
            mode = script.get("handshake")
            if mode == "hang":
                time.sleep(3600)
            if mode == "crash":
                sys.stderr.write("fake: cannot load my tables\n")
                sys.exit(5)
            if mode == "silent":
                say("hello, I am not a Hub engine", "%%% junk %%%")
                continue
            say(f"id name={script.get('name', 'fake')} version={script.get('version', '1.0')}")
            for p in script.get("params", []):
                say("param " + " ".join(f'{k}="{v}"' if " " in str(v) or v == "" else f"{k}={v}"
                                        for k, v in p.items()))
            say("wait")
        elif cmd == "init":
            say("ready")
        elif cmd == "pos":
            position = rest.split("pos=", 1)[1].split()[0] if "pos=" in rest else None
        elif cmd == "go":
            if script.get("crash_always") or position in script.get("crash_on", []):
                sys.stderr.write("fake: segmentation fault (scripted)\n")
                sys.stderr.flush()
                os._exit(3)
            if position in script.get("hang_on", []):
                time.sleep(3600)
            if position in script.get("garbage_on", []):
                say("%$#@! not hub", "info depth=3 score=abc", "done move=99-98")
                continue
            time.sleep(script.get("delay", 0))
            entry = script.get("positions", {}).get(position) or script.get("default")
            if entry is None:
                say('error message="unknown position"')
            else:
                answer(entry)
        elif cmd == "ping":
            say("pong")
        elif cmd == "quit":
            break


if __name__ == "__main__":
    main()
