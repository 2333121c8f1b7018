#!/usr/bin/env python3
"""A small coding agent over the OpenAI chat completions API with Python's
standard library alone: a real tool loop (read_file, list_dir) that keeps
every reasoning carrier a provider returns and decides, route by route,
which to send back. It exists to be checked by `replaycheck agent`; --mode
makes it behave like the agents that got reasoning replay wrong (see
examples/agents/README.md): correct, no-echo, no-pad, empty-pad,
drop-signatures, every-carrier, retry-loop.

    python3 agent.py [--base-url URL] [--model M] [--provider ID] [--mode MODE] [PROMPT]

The base URL and model default to OPENAI_BASE_URL and OPENAI_MODEL, the key
to OPENAI_API_KEY, the mode to AGENT_MODE. urllib honours HTTPS_PROXY and
SSL_CERT_FILE, so `replaycheck agent --intercept` reaches it by hostname.
"""
import argparse
import json
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

CARRIERS = ["reasoning_content", "reasoning", "reasoning_details", "reasoning_text", "reasoning_opaque"]
TOOLS = [
    {"type": "function", "function": {"name": name, "description": desc, "parameters": {
        "type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}}
    for name, desc in (("read_file", "Read a text file."), ("list_dir", "List a directory."))
]


def decide(provider, base_url, model):
    """The agent's route table: by provider id when told one, else by the
    base URL's host, else by the model id."""
    host = (urllib.parse.urlparse(base_url or "").hostname or "").lower()
    provider = (provider or "").lower()

    def is_(ids, hosts):
        return provider in ids or any(host == h or host.endswith("." + h) for h in hosts)

    m = (model or "").lower()
    r = {"flags": {}}
    r["strict"] = is_(["mistral", "groq", "cerebras", "sambanova", "hunyuan", "gemini", "google"],
                      ["mistral.ai", "groq.com", "cerebras.ai", "sambanova.ai", "hunyuan.cloud.tencent.com",
                       "generativelanguage.googleapis.com"])
    r["must_echo"] = is_(["deepseek", "kimi-coding", "kimi-coding-cn", "xiaomi", "moonshot"],
                         ["api.deepseek.com", "api.kimi.com", "moonshot.ai", "moonshot.cn", "xiaomimimo.com"]) \
        or "deepseek" in m or "mimo" in m
    if is_(["zai", "glm", "zhipu"], ["z.ai", "bigmodel.cn"]):
        r["flags"]["thinking"] = {"type": "enabled", "clear_thinking": False}
    elif is_(["dashscope", "alibaba", "qwen"], ["aliyuncs.com"]):
        r["flags"]["preserve_thinking"] = True
    elif is_(["kimi-coding", "kimi-coding-cn", "moonshot"], ["api.kimi.com", "moonshot.ai", "moonshot.cn"]):
        r["flags"]["thinking"] = {"keep": "all"}
    elif is_(["fireworks"], ["fireworks.ai"]):
        r["flags"]["reasoning_history"] = "preserved"
    return r


def unsigned(items):
    """A copy of a list without signatures and encrypted values."""
    if not isinstance(items, list):
        return items
    out = []
    for o in items:
        c = {k: v for k, v in o.items() if k not in ("signature", "extra_content", "data")}
        if isinstance(c.get("function"), dict):
            c["function"] = {k: v for k, v in c["function"].items() if k != "thought_signature"}
        out.append(c)
    return out


class Agent:
    def __init__(self, base_url, model, provider, mode):
        self.base = (base_url or "").rstrip("/")
        self.model, self.mode = model, mode
        self.route = decide(provider, base_url, model)
        self.refused = set()
        self.history = []

    def shape(self, stored):
        """The wire copy of a stored assistant message: the correct shaping
        with the one deviation the mode names."""
        m = {"role": "assistant", "content": stored.get("content") or ""}
        if stored.get("tool_calls"):
            m["tool_calls"] = stored["tool_calls"]
        if self.mode == "no-echo":
            return m
        if not self.route["strict"] or self.mode == "every-carrier":
            for k in CARRIERS:
                if k in stored and k not in self.refused:
                    m[k] = stored[k]
        if self.mode == "every-carrier":
            text = stored.get("reasoning_content") or stored.get("reasoning")
            if text:
                m["reasoning_content"] = m["reasoning"] = text
                m.setdefault("reasoning_details", [{"type": "reasoning.text", "text": text, "index": 0}])
        if self.mode == "drop-signatures":
            m.pop("reasoning_opaque", None)
            m["tool_calls"] = unsigned(stored.get("tool_calls"))
            if "reasoning_details" in m:
                m["reasoning_details"] = unsigned(m["reasoning_details"])
        if stored.get("tool_calls") and self.route["must_echo"] and not m.get("reasoning_content") \
                and "reasoning_content" not in self.refused:
            if self.mode == "empty-pad":
                m["reasoning_content"] = ""
            elif self.mode != "no-pad":
                m["reasoning_content"] = " "
        return m

    def post(self, body):
        req = urllib.request.Request(self.base + "/chat/completions", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json",
                                              "Authorization": "Bearer " + os.environ.get("OPENAI_API_KEY", "")})
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                return r.status, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.read()

    def complete(self):
        retries = 0
        while True:
            msgs = [self.shape(m) if m["role"] == "assistant" else m for m in self.history]
            body = {"model": self.model, "messages": msgs, "tools": TOOLS, **self.route["flags"]}
            status, resp = self.post(body)
            if status // 100 == 2:
                return json.loads(resp)["choices"][0]["message"]
            if self.mode == "retry-loop" and retries < 5:
                retries += 1
                continue
            sent = json.dumps(msgs)
            said = resp.decode(errors="replace")
            key = next((k for k in CARRIERS if k in said and f'"{k}"' in sent and k not in self.refused), None)
            if key and retries == 0 and self.mode != "retry-loop":
                self.refused.add(key)
                retries += 1
                continue
            raise RuntimeError(f"HTTP {status}: {said.strip()}")

    def run(self, prompt):
        self.history.append({"role": "user", "content": prompt})
        for _ in range(8):
            msg = self.complete()
            self.history.append(msg)
            calls = msg.get("tool_calls") or []
            if not calls:
                return msg.get("content") or ""
            for call in calls:
                self.history.append({"role": "tool", "tool_call_id": call["id"],
                                     "content": run_tool(call["function"]["name"], call["function"]["arguments"])})
        raise RuntimeError("no answer after 8 turns")


def run_tool(name, arguments):
    try:
        path = json.loads(arguments)["path"]
        if name == "read_file":
            with open(path, encoding="utf-8") as f:
                return f.read()
        if name == "list_dir":
            return "\n".join(sorted(os.listdir(path)))
        return "error: no tool " + name
    except Exception as e:  # the error is the tool's result
        return f"error: {e}"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--base-url", default=os.environ.get("OPENAI_BASE_URL"))
    p.add_argument("--model", default=os.environ.get("OPENAI_MODEL"))
    p.add_argument("--provider", default="")
    p.add_argument("--mode", default=os.environ.get("AGENT_MODE", "correct"))
    p.add_argument("prompt", nargs="*")
    a = p.parse_args()
    prompt = " ".join(a.prompt) or "What is the cache TTL? Read the notes first."
    try:
        print(Agent(a.base_url, a.model, a.provider, a.mode).run(prompt))
    except Exception as e:
        print(f"python-agent: {e}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
