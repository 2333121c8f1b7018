#!/usr/bin/env python3
"""replaycheck engine-protocol connector for the converter example (agent.py).

One JSON request per line on stdin, one JSON reply per line on stdout
(protocol/README.md). Standard library only; diagnostics on stderr.

    replaycheck run --engine "python3 examples/converter-connector/connector.py"
"""

import json
import sys

import agent

PROTOCOL = 1
IMPLEMENTATION = {
    "name": "converter-replay-example",
    "version": "0.1.0",
    "language": "python",
    "homepage": "examples/converter-connector",
}


class Unsupported(Exception):
    """Answered as unsupported: the cell becomes n/a with the reason."""


class Steps:
    """One method per protocol command; each takes the request, returns the result."""

    def hello(self, req):
        if req.get("protocol") != PROTOCOL:
            raise ValueError("protocol %r: this connector speaks %d" % (req.get("protocol"), PROTOCOL))
        return {"implementation": IMPLEMENTATION, "protocol": PROTOCOL, "api_modes": ["chat"]}

    def decide(self, req):
        return agent.decide(req["route"], req.get("rejected") or [])

    def shape(self, req):
        # The decision is not read: conversion looks the route up again.
        return {"body": agent.convert(req["route"], req["session"], req.get("options") or {})}

    reshape = shape

    def capture(self, req):
        if "response" not in req:
            raise Unsupported("binary (event-stream) responses are not chat completions")
        return {"message": agent.capture(req["response"], bool(req.get("stream")))}

    def learn(self, req):
        got = agent.learn(req["route"], req["session"], req["body"], req["status"], req["response"])
        if got is None:
            return {"learnt": False}
        verdict, config = got
        return {"learnt": True, "verdict": verdict, "model_config": config}

    def estimate(self, req):
        return {"tokens": agent.estimate(req["session"].get("messages") or [])}

    def compact(self, req):
        return agent.compact(req["session"], req["threshold"])

    def branch(self, req):
        session = json.loads(json.dumps(req["session"]))
        session["id"] = req["branch_id"]
        return {"session": session}

    def reload(self, req):
        # The agent's store is a JSON document: write it, read it back.
        return {"session": json.loads(json.dumps(req["session"], sort_keys=True))}

    def bye(self, req):
        return {}


def reply(steps, line):
    try:
        req = json.loads(line)
    except ValueError as e:
        return {"id": 0, "error": {"message": "not JSON: %s" % e}}
    rid, cmd = req.get("id", 0), req.get("cmd", "")
    step = getattr(steps, cmd, None) if cmd and not cmd.startswith("_") else None
    if step is None:
        return {"id": rid, "error": {"message": "unknown command %r" % cmd}}
    try:
        return {"id": rid, "result": step(req)}
    except Unsupported as e:
        return {"id": rid, "unsupported": {"reason": str(e)}}
    except Exception as e:  # the step failed; the process keeps serving
        print("converter: %s: %r" % (cmd, e), file=sys.stderr)
        return {"id": rid, "error": {"message": "%s: %s" % (type(e).__name__, e)}}


def main():
    steps = Steps()
    for line in sys.stdin:
        if not line.strip():
            continue
        out = reply(steps, line)
        sys.stdout.write(json.dumps(out, ensure_ascii=False, separators=(",", ":")) + "\n")
        sys.stdout.flush()
        if "result" in out and out["result"] == {} and '"bye"' in line:
            break


if __name__ == "__main__":
    main()
