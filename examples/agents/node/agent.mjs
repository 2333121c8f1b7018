// A small coding agent on the official openai SDK (pinned in
// package.json): a real tool loop (read_file, list_dir) that keeps every
// reasoning carrier a provider returns and decides, route by route, which
// to send back. It exists to be checked by `replaycheck agent`; --mode
// makes it behave like the agents that got reasoning replay wrong (see
// examples/agents/README.md): correct, no-echo, no-pad, empty-pad,
// drop-signatures, every-carrier, retry-loop.
//
//   node agent.mjs [--base-url URL] [--model M] [--provider ID] [--mode MODE] [PROMPT]
//
// The base URL and model default to OPENAI_BASE_URL and OPENAI_MODEL, the
// key to OPENAI_API_KEY, the mode to AGENT_MODE.
import { readFileSync, readdirSync } from "node:fs";
import OpenAI from "openai";

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  if (i < 0) return def;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const baseURL = opt("--base-url", process.env.OPENAI_BASE_URL);
const model = opt("--model", process.env.OPENAI_MODEL);
const provider = opt("--provider", "");
const mode = opt("--mode", process.env.AGENT_MODE || "correct");
const prompt = args.length ? args.join(" ") : "What is the cache TTL? Read the notes first.";

// The agent's route table: by provider id when told one, else by host,
// else by model id.
function decide() {
  let host = "";
  try { host = new URL(baseURL).hostname.toLowerCase(); } catch {}
  const is = (ids, hosts) => ids.some((id) => id === provider.toLowerCase()) ||
    hosts.some((h) => host === h || host.endsWith("." + h));
  const m = (model || "").toLowerCase();
  const r = { flags: {} };
  r.strict = is(["mistral", "groq", "cerebras", "sambanova", "hunyuan", "gemini", "google"],
    ["mistral.ai", "groq.com", "cerebras.ai", "sambanova.ai", "hunyuan.cloud.tencent.com", "generativelanguage.googleapis.com"]);
  r.mustEcho = is(["deepseek", "kimi-coding", "kimi-coding-cn", "xiaomi", "moonshot"],
    ["api.deepseek.com", "api.kimi.com", "moonshot.ai", "moonshot.cn", "xiaomimimo.com"]) || m.includes("deepseek") || m.includes("mimo");
  if (is(["zai", "glm", "zhipu"], ["z.ai", "bigmodel.cn"])) r.flags.thinking = { type: "enabled", clear_thinking: false };
  else if (is(["dashscope", "alibaba", "qwen"], ["aliyuncs.com"])) r.flags.preserve_thinking = true;
  else if (is(["kimi-coding", "kimi-coding-cn", "moonshot"], ["api.kimi.com", "moonshot.ai", "moonshot.cn"])) r.flags.thinking = { keep: "all" };
  else if (is(["fireworks"], ["fireworks.ai"])) r.flags.reasoning_history = "preserved";
  return r;
}
const route = decide();
const carriers = ["reasoning_content", "reasoning", "reasoning_details", "reasoning_text", "reasoning_opaque"];
const refused = new Set();

const tools = ["read_file", "list_dir"].map((name) => ({
  type: "function",
  function: { name, description: name === "read_file" ? "Read a text file." : "List a directory.",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
}));

function runTool(name, argsJSON) {
  try {
    const { path } = JSON.parse(argsJSON);
    if (name === "read_file") return readFileSync(path, "utf8");
    if (name === "list_dir") return readdirSync(path).join("\n");
    return "error: no tool " + name;
  } catch (e) {
    return "error: " + e.message;
  }
}

// unsigned copies a list without signatures and encrypted values.
const unsigned = (list) => (Array.isArray(list) ? list.map((o) => {
  const { signature, extra_content, data, ...rest } = o;
  if (rest.function) {
    const { thought_signature, ...fn } = rest.function;
    rest.function = fn;
  }
  return rest;
}) : list);

// shape is the wire copy of a stored assistant message: the correct
// shaping with the one deviation the mode names.
function shape(stored) {
  const m = { role: "assistant", content: stored.content ?? "" };
  if (stored.tool_calls) m.tool_calls = stored.tool_calls;
  if (mode === "no-echo") return m;
  if (!route.strict || mode === "every-carrier") {
    for (const k of carriers) if (k in stored && !refused.has(k)) m[k] = stored[k];
  }
  if (mode === "every-carrier") {
    const text = stored.reasoning_content || stored.reasoning;
    if (text) {
      m.reasoning_content = m.reasoning = text;
      m.reasoning_details ??= [{ type: "reasoning.text", text, index: 0 }];
    }
  }
  if (mode === "drop-signatures") {
    delete m.reasoning_opaque;
    m.tool_calls = unsigned(stored.tool_calls);
    if (m.reasoning_details) m.reasoning_details = unsigned(m.reasoning_details);
  }
  if (stored.tool_calls && route.mustEcho && !m.reasoning_content && !refused.has("reasoning_content")) {
    if (mode === "empty-pad") m.reasoning_content = "";
    else if (mode !== "no-pad") m.reasoning_content = " ";
  }
  return m;
}

// The SDK keeps a refusal's body only under its "error" member: Mistral's
// 422 ({"detail": [...]}) arrives as "422 status code (no body)". The
// agent keeps the last refusal's body itself to learn from it.
let lastRefusal = "";
const keepRefusal = async (url, init) => {
  const r = await fetch(url, init);
  if (!r.ok) lastRefusal = await r.clone().text();
  return r;
};
const client = new OpenAI({ baseURL, apiKey: process.env.OPENAI_API_KEY || "none", maxRetries: 0, timeout: 60_000, fetch: keepRefusal });
const history = [{ role: "user", content: prompt }];

async function complete() {
  for (let retries = 0; ; retries++) {
    const body = { model, messages: history.map((m) => (m.role === "assistant" ? shape(m) : m)), tools, ...route.flags };
    try {
      const r = await client.chat.completions.create(body);
      return r.choices[0].message;
    } catch (e) {
      if (!(e instanceof OpenAI.APIError) || !e.status) throw e;
      if (mode === "retry-loop" && retries < 5) continue;
      const said = lastRefusal || JSON.stringify(e.error ?? e.message);
      const sent = JSON.stringify(body.messages);
      const key = carriers.find((k) => said.includes(k) && sent.includes(`"${k}"`) && !refused.has(k));
      if (key && retries === 0 && mode !== "retry-loop") {
        refused.add(key);
        continue;
      }
      throw e;
    }
  }
}

try {
  for (let turn = 0; turn < 8; turn++) {
    const msg = await complete();
    history.push(msg);
    if (!msg.tool_calls?.length) {
      console.log(msg.content);
      process.exit(0);
    }
    for (const call of msg.tool_calls) {
      history.push({ role: "tool", tool_call_id: call.id, content: runTool(call.function.name, call.function.arguments) });
    }
  }
  throw new Error("no answer after 8 turns");
} catch (e) {
  console.error("node-agent:", e.status ? `HTTP ${e.status}: ${JSON.stringify(e.error)}` : e.message);
  process.exit(1);
}
