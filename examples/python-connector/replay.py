"""A tiny reasoning-replay function: the agent code the connector checks.

This stands for the replay code of a real agent. It speaks only the OpenAI
chat-completions dialect, keeps its own small route table, and knows three
things about reasoning carriers:

* a must-echo provider (DeepSeek, Kimi, MiMo) gets reasoning_content on
  every assistant turn, padded with one space when the turn has none;
* a strict provider (Mistral, Groq, Cerebras, SambaNova, Hunyuan) gets no
  reasoning key at all;
* a refusal naming a carrier is learnt, so the carrier is left out from
  then on.

It deliberately knows nothing more: no vendor keep-thinking flags and no
private native fields (Gemini thought signatures, Copilot's opaque blobs).
The matrix shows those gaps as failing cells; see README.md.

Every function is pure: plain dicts in, plain dicts out.
"""

import copy
import ipaddress
import json
import re
from urllib.parse import urlparse

RC, R, RD = "reasoning_content", "reasoning", "reasoning_details"
CARRIERS = [RC, R, RD]

# (family, raw provider ids, lower-cased provider ids, model substrings, hosts)
MUST_ECHO = [
    ("kimi", {"kimi-coding", "kimi-coding-cn"}, set(), [], ["api.kimi.com", "moonshot.ai", "moonshot.cn"]),
    ("deepseek", set(), {"deepseek"}, ["deepseek"], ["api.deepseek.com"]),
    ("mimo", set(), {"xiaomi"}, ["mimo"], ["api.xiaomimimo.com", "xiaomimimo.com"]),
]

# (row, carriers, provider ids, hosts); the first matching row wins.
ROWS = [
    ("strict", [], {"mistral", "groq", "cerebras", "sambanova"},
     ["mistral.ai", "groq.com", "cerebras.ai", "sambanova.ai", "hunyuan.cloud.tencent.com"]),
    ("gateways", [RC, R, RD], {"openrouter", "kilocode", "ai-gateway", "nous"},
     ["openrouter.ai", "kilo.ai", "ai-gateway.vercel.sh", "nousresearch.com"]),
]

UNKNOWN_FIELD = [
    "extra inputs are not permitted", "is unsupported", "no such field", "unknown field",
    "unrecognized request argument", "unrecognized field", "unknown parameter",
    "unexpected field", "additional propert", "unknown key",
]


def hostname(base_url):
    """The lower-cased hostname of a base URL (a bare host is accepted)."""
    url = base_url.strip()
    if "://" not in url:
        url = "http://" + url
    try:
        host = urlparse(url).hostname or ""
    except ValueError:
        return ""
    return host.lower().rstrip(".")


def host_matches(host, domain):
    return host != "" and (host == domain or host.endswith("." + domain))


def is_local(host):
    if host == "localhost" or host.endswith(".local") or host.endswith(".internal"):
        return True
    try:
        ip = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return ip.is_loopback or ip.is_private or ip.is_link_local


def route_key(route):
    """Where refusals are recorded: provider, host and model (SPEC §6)."""
    return {
        "provider": route["provider"].strip().lower(),
        "host": hostname(route["base_url"]),
        "model": route["model"].strip(),
    }


def echo_family(route):
    provider = route["provider"]
    lower, model, host = provider.strip().lower(), route["model"].lower(), hostname(route["base_url"])
    for family, raw, lowered, substrings, hosts in MUST_ECHO:
        if (provider in raw or lower in lowered or any(s in model for s in substrings)
                or any(host_matches(host, h) for h in hosts)):
            return family
    return ""


def decide(route, rejected):
    """The route decision: which carriers to send and whether to pad."""
    lower, host = route["provider"].strip().lower(), hostname(route["base_url"])
    row, carriers = "default", [RC]
    for name, row_carriers, providers, hosts in ROWS:
        if lower in providers or any(host_matches(host, h) for h in hosts):
            row, carriers = name, row_carriers
            break
    else:
        if is_local(host):
            row, carriers = "local", [RC, R]
    family = echo_family(route)
    kept = [c for c in carriers if c not in rejected]
    return {
        "carriers": kept,
        "pad": (bool(family) or route.get("echo_opt_in", False)) and RC in kept,
        "row": row,
        "echo_family": family,
        "rejected": [c for c in carriers if c in rejected],
    }


def reasoning_text(message):
    for key in (RC, R):
        text = message.get(key)
        if isinstance(text, str) and text.strip():
            return text
    return ""


def is_private(item):
    return str(item.get("type", "")).endswith(".native_assistant")


def wire_message(message, decision):
    """The wire copy of one stored message for the decided route."""
    carriers, out = decision["carriers"], {"role": message["role"]}
    for key in ("content", "name", "tool_call_id"):
        if key in message:
            out[key] = message[key]
    if message.get("tool_calls"):
        out["tool_calls"] = [
            {"id": call["id"], "type": call.get("type") or "function",
             "function": {"name": call["function"]["name"], "arguments": call["function"]["arguments"]}}
            for call in message["tool_calls"]
        ]
    if message["role"] == "assistant":
        text = reasoning_text(message)
        if RC in carriers and (text or decision["pad"]):
            out[RC] = text or " "
        if R in carriers and text:
            out[R] = text
    else:
        for key in (RC, R):
            if key in carriers and key in message:
                out[key] = message[key]
    if RD in carriers:
        items = [item for item in message.get(RD, []) if not is_private(item)]
        if items:
            out[RD] = items
    stored = {"role", "content", "name", "tool_call_id", "tool_calls", RC, R, RD, "extra_content",
              "reasoning_opaque", "reasoning_text", "native", "timestamp"}
    for key in sorted(message):
        if key not in stored and not key.startswith("_"):
            out[key] = message[key]
    return out


def shape(session, decision, options, model):
    """The chat request body for the session's history."""
    body = {"model": options.get("model") or model,
            "messages": [wire_message(m, decision) for m in session["messages"]]}
    if options.get("tools"):
        body["tools"] = []
        for tool in options["tools"]:
            function = {"name": tool["name"]}
            if tool.get("description"):
                function["description"] = tool["description"]
            if "parameters" in tool:
                function["parameters"] = tool["parameters"]
            body["tools"].append({"type": "function", "function": function})
    if options.get("stream"):
        body["stream"] = True
    return body


class Accumulator:
    """Builds the stored assistant message from a whole message or deltas."""

    def __init__(self):
        self.content, self.content_raw = [], None
        self.text = {RC: [], R: []}
        self.details, self.calls, self.by_index = [], [], {}

    def feed(self, delta):
        content = delta.get("content")
        if isinstance(content, str):
            self.content.append(content)
        elif isinstance(content, list):
            self.content_raw = content
        for key in (RC, R):
            if isinstance(delta.get(key), str):
                self.text[key].append(delta[key])
        for item in delta.get(RD) or []:
            self.feed_detail(item)
        for pos, call in enumerate(delta.get("tool_calls") or []):
            self.feed_call(pos, call)

    def feed_detail(self, item):
        if not isinstance(item, dict):
            return
        found = None
        if "index" in item:
            for d in self.details:
                if d.get("index") == item["index"] and item.get("type") in (None, "", d.get("type")):
                    found = d
                    break
        if found is None:
            found = {}
            self.details.append(found)
        for key, value in item.items():
            if key in ("text", "summary") and isinstance(value, str):
                found[key] = found.get(key, "") + value
            elif value == "" and key in found:
                continue
            else:
                found[key] = value

    def feed_call(self, pos, call):
        index, call_id = call.get("index", pos), call.get("id") or ""
        acc = self.by_index.get(index)
        if acc is None or (call_id and acc["id"] and call_id != acc["id"]):
            acc = {"id": "", "type": "", "name": "", "arguments": []}
            self.by_index[index] = acc
            self.calls.append(acc)
        acc["id"] = call_id or acc["id"]
        acc["type"] = call.get("type") or acc["type"]
        function = call.get("function") or {}
        acc["name"] = function.get("name") or acc["name"]
        if isinstance(function.get("arguments"), str):
            acc["arguments"].append(function["arguments"])

    def message(self):
        msg = {"role": "assistant"}
        content = "".join(self.content)
        calls = [{"id": c["id"], "type": c["type"] or "function",
                  "function": {"name": c["name"], "arguments": "".join(c["arguments"])}} for c in self.calls]
        if self.content_raw is not None:
            msg["content"] = self.content_raw
        elif content:
            msg["content"] = content
        else:
            msg["content"] = None if calls else ""
        if calls:
            msg["tool_calls"] = calls
        for key in (RC, R):
            if "".join(self.text[key]):
                msg[key] = "".join(self.text[key])
        if self.details:
            msg[RD] = [dict(sorted(d.items())) for d in self.details]
        return msg


def capture(response, stream):
    """The stored assistant message of a response, whole or an SSE stream."""
    acc = Accumulator()
    if not stream:
        acc.feed(json.loads(response)["choices"][0]["message"])
        return acc.message()
    for event in response.replace("\r\n", "\n").split("\n\n"):
        data = "\n".join(line[5:].lstrip(" ") for line in event.split("\n") if line.startswith("data:"))
        if not data.strip():
            continue
        if data.strip() == "[DONE]":
            break
        chunk = json.loads(data)
        if chunk.get("error"):
            raise ValueError("stream error: " + json.dumps(chunk["error"]))
        for choice in chunk.get("choices") or []:
            acc.feed(choice.get("delta") or {})
    return acc.message()


def sent_carriers(body):
    sent = set()
    for message in body.get("messages", []):
        if message.get("role") == "assistant":
            sent.update(c for c in CARRIERS if c in message)
    return sent


def names(text, carrier):
    if carrier == R:  # "reasoning" is also a request parameter: count it only in a message path
        return re.search(r"messages[^\n]{0,80}?(?:^|[^A-Za-z0-9_])reasoning(?:$|[^A-Za-z0-9_])", text) is not None
    return re.search(r"(?:^|[^A-Za-z0-9_])" + carrier + r"(?:$|[^A-Za-z0-9_])", text) is not None


def learn(route, model_config, sent_body, status, response):
    """Learns a refused carrier from an unknown-field 4xx (SPEC §6).

    Returns (verdict, new model_config), or (None, None) when there is
    nothing new to learn.
    """
    text = response.lower()
    if not 400 <= status <= 499 or not any(p in text for p in UNKNOWN_FIELD):
        return None, None
    sent = sent_carriers(sent_body)
    named = {c for c in CARRIERS if c in sent and names(text, c)}
    drop = sent if RC in named else named
    if echo_family(route):
        drop = drop - {RC}  # reasoning_content is mandatory on a must-echo route
    key = route_key(route)
    config = copy.deepcopy(model_config)
    entries = config.setdefault("rejected_carriers", [])
    entry = next((e for e in entries if all(e[k] == key[k] for k in key)), None)
    before = set(entry["carriers"]) if entry else set()
    added = drop - before
    if not added:
        return None, None
    if entry is None:
        entry = dict(key, carriers=[])
        entries.append(entry)
        entries.sort(key=lambda e: (e["provider"], e["host"], e["model"]))
    entry["carriers"] = [c for c in CARRIERS if c in before | drop]
    verdict = "%s %s %s refused %s: recorded, retrying once without it" % (
        key["provider"], key["host"], key["model"], ", ".join(c for c in CARRIERS if c in added))
    return verdict, config
