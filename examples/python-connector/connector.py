#!/usr/bin/env python3
"""The replaycheck engine-protocol connector for the example replay code.

replaycheck starts this program, writes one JSON request per line on its
standard input and reads one JSON reply per line from its standard output
(protocol/README.md). Each request is one pure step; this file only
translates between the protocol and replay.py, the agent's own code. To
check your agent, keep this loop and point the handlers at your functions.

    replaycheck run --engine "python3 examples/python-connector/connector.py"

Standard library only. Diagnostics go to standard error, which replaycheck
quotes when a step fails.
"""

import copy
import json
import sys

import replay

PROTOCOL = 1

HELLO = {
    "implementation": {
        "name": "python-replay-example",
        "version": "0.1.0",
        "language": "python",
        "homepage": "examples/python-connector",
    },
    "protocol": PROTOCOL,
    "api_modes": ["chat"],
}


class Unsupported(Exception):
    """A step this implementation does not do; the cell becomes n/a."""


def hello(req):
    if req["protocol"] != PROTOCOL:
        raise ValueError("this connector speaks protocol %d, not %d" % (PROTOCOL, req["protocol"]))
    return HELLO


def decide(req):
    return replay.decide(req["route"], req.get("rejected", []))


def shape(req):
    body = replay.shape(req["session"], req["decision"], req["options"], req["route"]["model"])
    return {"body": body}


def reshape(req):
    # Shaping afresh with the new decision reconciles the refused body.
    return shape(req)


def capture(req):
    if "response" not in req:
        raise Unsupported("binary responses (Bedrock event streams) are not chat")
    return {"message": replay.capture(req["response"], req.get("stream", False))}


def learn(req):
    config = req["session"].get("model_config", {})
    verdict, learnt = replay.learn(req["route"], config, req["body"], req["status"], req["response"])
    if verdict is None:
        return {"learnt": False}
    return {"learnt": True, "verdict": verdict, "model_config": learnt}


def estimate(req):
    raise Unsupported("the example does not compact; wire your agent's token estimate and compaction here")


def compact(req):
    raise Unsupported("the example does not compact; wire your agent's token estimate and compaction here")


def branch(req):
    session = copy.deepcopy(req["session"])
    session["id"] = req["branch_id"]
    return {"session": session}


def reload(req):
    # The example's session store is JSON text; a real agent saves the
    # session to its own store, closes it, opens it again and loads it.
    return {"session": json.loads(json.dumps(req["session"]))}


def bye(req):
    return {}


HANDLERS = {
    "hello": hello, "decide": decide, "shape": shape, "reshape": reshape, "capture": capture,
    "learn": learn, "estimate": estimate, "compact": compact, "branch": branch, "reload": reload,
    "bye": bye,
}


def answer(line):
    """The reply to one request line, and whether it was bye."""
    try:
        req = json.loads(line)
    except ValueError as e:
        return {"id": 0, "error": {"message": "request is not JSON: %s" % e}}, False
    rid, cmd = req.get("id", 0), req.get("cmd")
    handler = HANDLERS.get(cmd)
    if handler is None:
        return {"id": rid, "error": {"message": "unknown command %r" % cmd}}, False
    try:
        return {"id": rid, "result": handler(req)}, cmd == "bye"
    except Unsupported as e:
        return {"id": rid, "unsupported": {"reason": str(e)}}, False
    except Exception as e:  # a step that fails answers an error; the run goes on
        print("connector: %s: %r" % (cmd, e), file=sys.stderr)
        return {"id": rid, "error": {"message": "%s: %s" % (type(e).__name__, e)}}, False


def main():
    for line in sys.stdin:
        if not line.strip():
            continue
        reply, bye = answer(line)
        sys.stdout.write(json.dumps(reply, ensure_ascii=False, separators=(",", ":")) + "\n")
        sys.stdout.flush()
        if bye:
            return


if __name__ == "__main__":
    main()
