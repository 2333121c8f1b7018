// A small coding agent on the official @anthropic-ai/sdk (pinned in
// package.json): extended thinking on, a real tool loop (read_file,
// list_dir), and the assistant turns sent back as the SDK returned them,
// thinking blocks and their signatures included. It exists to be checked
// by `replaycheck agent`; --mode makes it behave like the agents that got
// Anthropic replay wrong (see examples/agents/README.md):
//
//   correct          every content block back as the SDK returned it; on a
//                    DeepSeek or Kimi route a tool-use turn that came without
//                    thinking goes back with a " " thinking block first
//   no-pad           that turn goes back bare (the seed's "before")
//   drop-signatures  thinking text back without its signature, redacted
//                    thinking dropped (a re-serialiser that keeps text only)
//   drop-thinking    no thinking or redacted_thinking block on the way back
//
//   node agent.mjs [--base-url URL] [--model M] [--provider ID] [--mode MODE]
//                  [--budget N] [--thinking enabled|adaptive] [--stream] [PROMPT]
//
// The base URL, key and model default to ANTHROPIC_BASE_URL,
// ANTHROPIC_API_KEY and ANTHROPIC_MODEL (the SDK reads the first two
// itself), the mode to AGENT_MODE.
import { readFileSync, readdirSync } from "node:fs";
import Anthropic from "@anthropic-ai/sdk";

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  if (i < 0) return def;
  const v = args[i + 1];
  args.splice(i, 2);
  return v;
};
const flag = (name) => {
  const i = args.indexOf(name);
  if (i >= 0) args.splice(i, 1);
  return i >= 0;
};
const baseURL = opt("--base-url", process.env.ANTHROPIC_BASE_URL);
const model = opt("--model", process.env.ANTHROPIC_MODEL);
const provider = opt("--provider", "");
const mode = opt("--mode", process.env.AGENT_MODE || "correct");
const budget = Number(opt("--budget", "1024"));
const thinkingType = opt("--thinking", "enabled");
const stream = flag("--stream");
const prompt = args.length ? args.join(" ") : "What is the cache TTL? Read the notes first.";
if (!["correct", "no-pad", "drop-signatures", "drop-thinking"].includes(mode)) {
  console.error(`agent: unknown --mode ${mode}`);
  process.exit(2);
}

// mustEcho is the agent's route decision: an Anthropic-compatible endpoint
// that refuses a tool-use turn without thinking even when its own answer
// carried none (DeepSeek, Kimi), told by provider id, host or model id.
// Anthropic's own endpoints would refuse the unsigned pad.
const mustEcho = (() => {
  let host = "";
  try { host = new URL(baseURL || "").hostname.toLowerCase(); } catch {}
  const m = (model || "").toLowerCase();
  return ["deepseek", "kimi-coding", "kimi-coding-cn", "moonshot"].includes(provider.toLowerCase()) ||
    ["api.deepseek.com", "api.kimi.com", "api.moonshot.ai", "api.moonshot.cn"].includes(host) ||
    m.includes("deepseek") || m.includes("kimi");
})();

const tools = [
  { name: "read_file", description: "Read a text file.",
    input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
  { name: "list_dir", description: "List a directory.",
    input_schema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
];

function runTool(name, input) {
  try {
    if (name === "read_file") return readFileSync(input.path, "utf8");
    if (name === "list_dir") return readdirSync(input.path).join("\n");
    return "error: no tool " + name;
  } catch (e) {
    return "error: " + e.message;
  }
}

// shape is the wire copy of a stored assistant content list: the SDK's
// own blocks, with the one deviation the mode names.
function shape(content) {
  const thought = content.some((b) => b.type === "thinking" || b.type === "redacted_thinking");
  if (!thought && mustEcho && mode !== "no-pad" && content.some((b) => b.type === "tool_use")) {
    return [{ type: "thinking", thinking: " " }, ...content];
  }
  if (mode === "drop-thinking") return content.filter((b) => b.type !== "thinking" && b.type !== "redacted_thinking");
  if (mode === "drop-signatures") {
    return content.filter((b) => b.type !== "redacted_thinking")
      .map((b) => (b.type === "thinking" ? { type: "thinking", thinking: b.thinking } : b));
  }
  return content;
}

const client = new Anthropic({ baseURL, maxRetries: 0, timeout: 60_000 });
const thinking = thinkingType === "adaptive" ? { type: "adaptive" } : { type: "enabled", budget_tokens: budget };
const history = [{ role: "user", content: prompt }];

async function complete() {
  const body = {
    model, max_tokens: budget + 2048, thinking, tools,
    messages: history.map((m) => (m.role === "assistant" ? { role: "assistant", content: shape(m.content) } : m)),
  };
  if (stream) return client.messages.stream(body).finalMessage();
  return client.messages.create(body);
}

try {
  for (let turn = 0; turn < 8; turn++) {
    const msg = await complete();
    history.push({ role: "assistant", content: msg.content });
    const calls = msg.content.filter((b) => b.type === "tool_use");
    if (msg.stop_reason !== "tool_use" || calls.length === 0) {
      console.log(msg.content.filter((b) => b.type === "text").map((b) => b.text).join(""));
      process.exit(0);
    }
    history.push({
      role: "user",
      content: calls.map((c) => ({ type: "tool_result", tool_use_id: c.id, content: runTool(c.name, c.input) })),
    });
  }
  console.error("agent: no final answer after 8 turns");
  process.exit(1);
} catch (e) {
  console.error("agent:", e instanceof Anthropic.APIError ? `${e.status} ${e.message}` : e);
  process.exit(1);
}
