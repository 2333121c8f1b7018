"""The converter example: an agent whose replay code has its own message model.

Stored messages (the harness's storage JSON) are read into Turn objects,
and the wire body is written from those turns. Three choices differ from
the reference engine on purpose, the way real agents differ:

* a tool result goes out without its ``name`` (some strict providers
  refuse it, so this agent never sends it);
* an assistant tool-call turn without text goes out with ``content: ""``,
  and is stored that way when captured (the reference stores ``null``);
* the route table is applied inside conversion (routes.lookup), not taken
  from the decision the harness hands back: what the session's model
  config records as refused is all the conversion needs.

replaycheck judges such an agent through the differences each provider's
profile declares ignorable (providers/*.yaml, ``ignore``), and by the
provider's profile for what no cassette holds.
"""

import copy
import json
import re
from dataclasses import dataclass, field

import routes
from routes import RC, R, RD, ORDER

# Storage-only keys that never reach a chat wire (SPEC §3.1 and §3.3).
STORAGE_ONLY = {"timestamp", "native", "extra_content", "reasoning_opaque", "reasoning_text"}


@dataclass
class Call:
    id: str
    name: str
    arguments: str

    def wire(self):
        return {"id": self.id, "type": "function", "function": {"name": self.name, "arguments": self.arguments}}


@dataclass
class Turn:
    role: str
    content: object = None  # a string, a list of parts, or None
    calls: list = field(default_factory=list)
    call_id: str = ""
    thought: str = ""       # the first non-blank of reasoning_content, reasoning
    details: list = field(default_factory=list)  # reasoning_details items, verbatim
    extra: dict = field(default_factory=dict)     # keys this agent does not model

    @classmethod
    def read(cls, m):
        turn = cls(role=m["role"], content=m.get("content"), call_id=m.get("tool_call_id") or "")
        for c in m.get("tool_calls") or []:
            fn = c.get("function") or {}
            turn.calls.append(Call(c.get("id") or "", fn.get("name") or "", fn.get("arguments") or ""))
        for k in (RC, R):
            v = m.get(k)
            if isinstance(v, str) and v.strip():
                turn.thought = v
                break
        turn.details = [d for d in m.get(RD) or [] if not str(d.get("type", "")).endswith(".native_assistant")]
        modelled = {"role", "content", "tool_calls", "tool_call_id", "name", RC, R, RD}
        turn.extra = {k: v for k, v in m.items() if k not in modelled and k not in STORAGE_ONLY and not k.startswith("_")}
        return turn

    def wire(self, carriers, pad):
        out = {"role": self.role}
        if self.role == "tool":
            out["tool_call_id"] = self.call_id  # no name: see the module doc
            out["content"] = self.content
        elif self.role == "assistant" and self.calls:
            out["content"] = self.content if self.content not in (None, "") else ""
            out["tool_calls"] = [c.wire() for c in self.calls]
        else:
            out["content"] = self.content
        if self.role == "assistant":
            if RC in carriers and (self.thought or pad):
                out[RC] = self.thought or " "
            if R in carriers and self.thought:
                out[R] = self.thought
            if RD in carriers and self.details:
                out[RD] = self.details
        out.update(self.extra)
        return out


def set_path(body, path, value):
    *parents, last = path.split(".")
    for p in parents:
        body = body.setdefault(p, {})
    body[last] = value


def convert(route, session, options):
    """The request body: the route looked up again, the session converted."""
    _, carriers, pad, _, flags = routes.lookup(route, session.get("model_config"))
    body = {"model": options.get("model") or route["model"],
            "messages": [Turn.read(m).wire(carriers, pad) for m in session.get("messages") or []]}
    tools = options.get("tools") or []
    if tools:
        body["tools"] = [{"type": "function", "function": {k: t[k] for k in ("name", "description", "parameters") if t.get(k) is not None}} for t in tools]
    if options.get("stream"):
        body["stream"] = True
    for path, value in flags.items():
        set_path(body, path, value)
    return body


def decide(route, rejected):
    row, carriers, pad, fam, flags = routes.lookup(route, {"rejected_carriers": [
        dict(zip(("provider", "host", "model"), routes.key(route)), carriers=list(rejected))]})
    return {"carriers": carriers, "pad": pad, "row": row, "echo_family": fam,
            "flags": [{"path": p, "value": v} for p, v in flags.items()]}


# ---- capture -------------------------------------------------------------

class Builder:
    """Folds a whole message or stream deltas into the stored message."""

    def __init__(self):
        self.text, self.parts = "", None
        self.thoughts = {RC: "", R: ""}
        self.details, self.calls, self.open = [], [], {}

    def add(self, delta):
        c = delta.get("content")
        if isinstance(c, str):
            self.text += c
        elif isinstance(c, list):
            self.parts = c
        for k in (RC, R):
            if isinstance(delta.get(k), str):
                self.thoughts[k] += delta[k]
        for item in delta.get(RD) or []:
            self.add_detail(item)
        for pos, call in enumerate(delta.get("tool_calls") or []):
            idx = call.get("index", pos)
            cur = self.open.get(idx)
            if cur is None or (call.get("id") and cur["id"] and call["id"] != cur["id"]):
                cur = {"id": "", "type": "", "name": "", "arguments": ""}
                self.open[idx] = cur  # a reused index with a new id opens a new call
                self.calls.append(cur)
            cur["id"] = call.get("id") or cur["id"]
            cur["type"] = call.get("type") or cur["type"]
            fn = call.get("function") or {}
            cur["name"] = fn.get("name") or cur["name"]
            cur["arguments"] += fn.get("arguments") or ""

    def add_detail(self, item):
        if not isinstance(item, dict):
            return
        for d in self.details:
            if "index" in item and d.get("index") == item["index"] and item.get("type") in (None, "", d.get("type")):
                break
        else:
            d = {}
            self.details.append(d)
        for k, v in item.items():
            if k in ("text", "summary") and isinstance(v, str):
                d[k] = d.get(k, "") + v
            elif not (v == "" and k in d):
                d[k] = v

    def message(self):
        msg = {"role": "assistant"}
        calls = [{"id": c["id"], "type": c["type"] or "function", "function": {"name": c["name"], "arguments": c["arguments"]}}
                 for c in self.calls]
        msg["content"] = self.parts if self.parts is not None else self.text  # "" on a tool-call turn, never null
        if calls:
            msg["tool_calls"] = calls
        for k in (RC, R):
            if self.thoughts[k]:
                msg[k] = self.thoughts[k]
        if self.details:
            msg[RD] = [dict(sorted(d.items())) for d in self.details]
        return msg


def capture(response, stream):
    b = Builder()
    if not stream:
        b.add(json.loads(response)["choices"][0]["message"])
        return b.message()
    for block in response.replace("\r\n", "\n").split("\n\n"):
        data = "\n".join(l[5:].lstrip(" ") for l in block.split("\n") if l.startswith("data:")).strip()
        if not data:
            continue
        if data == "[DONE]":
            break
        chunk = json.loads(data)
        if chunk.get("error"):
            raise ValueError("the stream carries an error: " + json.dumps(chunk["error"]))
        for choice in chunk.get("choices") or []:
            b.add(choice.get("delta") or {})
    return b.message()


# ---- learning from a refusal (SPEC §6) -----------------------------------

UNKNOWN_FIELD = re.compile("|".join(map(re.escape, (
    "extra inputs are not permitted", "is unsupported", "no such field", "unknown field",
    "unrecognized request argument", "unrecognized field", "unknown parameter",
    "unexpected field", "additional propert", "unknown key"))))


def named(text, carrier):
    word = r"(?<![A-Za-z0-9_])%s(?![A-Za-z0-9_])"
    if carrier == R:  # "reasoning" is also a request parameter: only a message path counts
        return re.search(r"messages[^\n]{0,80}?" + word % R, text) is not None
    return re.search(word % carrier, text) is not None


def learn(route, session, sent, status, response):
    text = response.lower()
    if status // 100 != 4 or not UNKNOWN_FIELD.search(text):
        return None
    carried = {c for m in sent.get("messages") or [] if m.get("role") == "assistant" for c in ORDER if c in m}
    hit = {c for c in carried if named(text, c)}
    drop = carried if RC in hit else hit
    if routes.family(route):
        drop.discard(RC)
    config = copy.deepcopy(session.get("model_config") or {})
    before = routes.refused(route, config)
    if not drop - before:
        return None
    provider, host, model = routes.key(route)
    rows = [e for e in config.get("rejected_carriers") or [] if (e.get("provider"), e.get("host"), e.get("model")) != (provider, host, model)]
    rows.append({"provider": provider, "host": host, "model": model, "carriers": [c for c in ORDER if c in before | drop]})
    config["rejected_carriers"] = sorted(rows, key=lambda e: (e["provider"], e["host"], e["model"]))
    verdict = "%s at %s (%s) refused %s; the table leaves it out from now on" % (
        provider, host, model, ", ".join(c for c in ORDER if c in drop - before))
    return verdict, config


def estimate(messages):
    """A rough token estimate: four characters a token over the stored JSON.
    Compaction prices with the same function, so the two always agree."""
    return len(json.dumps(messages, ensure_ascii=False)) // 4


def is_checkpoint(item):
    return isinstance(item, dict) and item.get("type") == "compaction"


def drop_shadowed_checkpoints(messages):
    """Keeps only the newest compaction checkpoint of the kept turns: an older
    one is shadowed by it (SPEC §7). Every other item stays as it was."""
    newest = -1
    for i, m in enumerate(messages):
        if any(is_checkpoint(item) for item in m.get("reasoning_details") or []):
            newest = i
    for i, m in enumerate(messages):
        details = m.get("reasoning_details")
        if i == newest or not details:
            continue
        kept = [item for item in details if not is_checkpoint(item)]
        if kept:
            m["reasoning_details"] = kept
        else:
            del m["reasoning_details"]
    return messages


def compact(session, threshold):
    """Drops the oldest whole exchanges (a user message and what answered
    it) until the history fits; kept turns keep every carrier. The session
    handed in is not edited."""
    messages = session.get("messages") or []
    head = 0
    while head < len(messages) and messages[head]["role"] == "system":
        head += 1
    system, rest = messages[:head], messages[head:]
    starts = [i for i, m in enumerate(rest) if m["role"] == "user"]
    cut = 0
    for start in starts[1:]:
        if estimate(system + rest[cut:]) <= threshold:
            break
        cut = start
    kept = drop_shadowed_checkpoints(copy.deepcopy(system + rest[cut:]))
    out = copy.deepcopy(session)
    out["messages"] = kept
    return {"session": out, "dropped": cut, "before": estimate(messages), "after": estimate(kept),
            "cannot_shrink": estimate(kept) > threshold}
