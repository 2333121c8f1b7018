"""The converter example's own route table, consulted while converting.

Unlike the template connector, this agent does not trust a decision handed
to it: every time it converts a session for the wire it looks the route up
here again, less the carriers the session's model config records as
refused. The rows follow SPEC §2.2-§2.3 and §3.4 (see protocol/spec.md),
written as data this agent owns.
"""

import ipaddress
from urllib.parse import urlsplit

RC, R, RD = "reasoning_content", "reasoning", "reasoning_details"
ORDER = (RC, R, RD)

# family: (providers compared raw, providers lower-cased, model substrings, hosts)
MUST_ECHO = {
    "kimi": ({"kimi-coding", "kimi-coding-cn"}, set(), (), ("api.kimi.com", "moonshot.ai", "moonshot.cn")),
    "deepseek": (set(), {"deepseek"}, ("deepseek",), ("api.deepseek.com",)),
    "mimo": (set(), {"xiaomi"}, ("mimo",), ("api.xiaomimimo.com", "xiaomimimo.com")),
}
FAMILY_ORDER = ("kimi", "deepseek", "mimo")

# (row, carriers, provider ids, hosts), first match wins.
ROWS = (
    ("strict", (), ("mistral", "groq", "cerebras", "sambanova"),
     ("mistral.ai", "groq.com", "cerebras.ai", "sambanova.ai", "hunyuan.cloud.tencent.com")),
    ("fireworks", (RC,), ("fireworks",), ("fireworks.ai",)),
    ("gateways", (RC, R, RD), ("openrouter", "kilocode", "ai-gateway", "nous"),
     ("openrouter.ai", "kilo.ai", "ai-gateway.vercel.sh", "nousresearch.com")),
    ("details vendors", (RC, RD), ("novita", "tencent-tokenhub", "minimax", "minimax-cn"),
     ("novita.ai", "tokenhub.tencentmaas.com", "tokenhub-intl.tencentcloudmaas.com", "minimax.io", "minimaxi.com")),
    ("local family", (RC, R), ("ollama-cloud", "custom", "lmstudio", "upstage"), ("ollama.com", "upstage.ai")),
)

# Vendor keep-thinking flags (SPEC §3.4): (providers, hosts, model substrings, {path: value}).
FLAGS = (
    (("zai", "zhipu", "glm"), ("api.z.ai", "open.bigmodel.cn"), ("glm",),
     {"thinking.type": "enabled", "thinking.clear_thinking": False}),
    (("dashscope", "alibaba", "qwen"), ("dashscope.aliyuncs.com", "dashscope-intl.aliyuncs.com"),
     ("qwen3.6-plus", "qwen3.7", "kimi-k2.6"), {"preserve_thinking": True}),
    (("kimi-coding", "kimi-coding-cn", "moonshot", "kimi"), ("api.kimi.com", "moonshot.ai", "moonshot.cn"),
     ("kimi-k2.6",), {"thinking.type": "enabled", "thinking.keep": "all"}),
)


def host_of(base_url):
    text = base_url.strip()
    try:
        host = urlsplit(text if "://" in text else "//" + text).hostname or ""
    except ValueError:
        return ""
    return host.lower().rstrip(".")


def under(host, domain):
    return bool(host) and (host == domain or host.endswith("." + domain))


def local(host):
    if "." not in host or host == "localhost" or host.endswith((".local", ".localhost", ".internal")):
        return bool(host)
    try:
        ip = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return False
    return ip.is_loopback or ip.is_private or ip.is_link_local or ip in ipaddress.ip_network("100.64.0.0/10")


def family(route):
    raw = route["provider"]
    low, model, host = raw.strip().lower(), route["model"].lower(), host_of(route["base_url"])
    for name in FAMILY_ORDER:
        raws, lows, subs, hosts = MUST_ECHO[name]
        if raw in raws or low in lows or any(s in model for s in subs) or any(under(host, h) for h in hosts):
            return name
    return ""


def key(route):
    return (route["provider"].strip().lower(), host_of(route["base_url"]), route["model"].strip())


def refused(route, model_config):
    """The carriers the session recorded as refused on this route."""
    provider, host, model = key(route)
    for entry in (model_config or {}).get("rejected_carriers") or []:
        if (entry.get("provider"), entry.get("host"), entry.get("model")) == (provider, host, model):
            return set(entry.get("carriers") or [])
    return set()


def lookup(route, model_config):
    """(row, carriers, pad, family, flags) for the route as the session stands."""
    low, host = route["provider"].strip().lower(), host_of(route["base_url"])
    row, carriers = "default", (RC,)
    for name, row_carriers, providers, hosts in ROWS:
        if low in providers or any(under(host, h) for h in hosts):
            row, carriers = name, row_carriers
            break
    else:
        if local(host):
            row, carriers = "local endpoint", (RC, R)
    gone = refused(route, model_config)
    kept = [c for c in carriers if c not in gone]
    fam = family(route)
    pad = (bool(fam) or bool(route.get("echo_opt_in"))) and RC in kept
    flags = {}
    model = route["model"].lower()
    for providers, hosts, models, values in FLAGS:
        if (low in providers or any(under(host, h) for h in hosts)) and any(m in model for m in models):
            flags.update(values)
    return row, kept, pad, fam, flags
