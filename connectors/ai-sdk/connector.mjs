#!/usr/bin/env node
// replaycheck engine-protocol connector over the Vercel AI SDK (ai 6.0.x and
// its provider packages). One JSON request per line on stdin, one JSON reply
// per line on stdout (protocol/README.md); diagnostics on stderr.
//
//   replaycheck run --engine "node connectors/ai-sdk/connector.mjs" --expect connectors/ai-sdk/expect.yaml
//
// shape and capture run the SDK's own generateText/streamText with a fetch
// that never leaves the process (wire.mjs); routes.mjs says which package
// serves which route; codec.mjs maps stored turns to the SDK's messages.

import { createInterface } from "node:readline";
import { readFileSync } from "node:fs";
import { decide } from "./decide.mjs";
import { resolve } from "./routes.mjs";
import { capture, shape } from "./sdk.mjs";

const PROTOCOL = 1;
const AI_VERSION = JSON.parse(readFileSync(new URL("./node_modules/ai/package.json", import.meta.url), "utf8")).version;

/** The scenarios the SDK takes part in: all but fallback (it learns nothing). */
const SCENARIOS = ["carriers", "missing-echo", "strict-schema", "signed-roundtrip", "resume", "compaction", "branch", "flags"];

/** A step the SDK does not do; the cell becomes n/a with the reason. */
class Unsupported extends Error {}

/** routeOf resolves a request's route to its package, or answers unsupported. */
function routeOf(req) {
  const r = resolve(req.route || {});
  if (!r) throw new Unsupported(`api mode ${req.route && req.route.api_mode} has no AI SDK package here`);
  return r;
}

const steps = {
  hello(req) {
    if (req.protocol !== PROTOCOL) throw new Error(`this connector speaks protocol ${PROTOCOL}, not ${req.protocol}`);
    return {
      implementation: { name: "vercel-ai-sdk", version: AI_VERSION, language: "javascript", homepage: "connectors/ai-sdk" },
      protocol: PROTOCOL,
      api_modes: ["chat", "anthropic", "bedrock-converse", "gemini", "responses"],
      scenarios: SCENARIOS,
    };
  },
  async decide(req) {
    return decide(req.route, routeOf(req));
  },
  async shape(req) {
    return { body: await shape(req.route, routeOf(req), req.session, req.options || {}) };
  },
  // The SDK has no notion of a refused body: it converts the session again.
  async reshape(req) {
    return { body: await shape(req.route, routeOf(req), req.session, req.options || {}) };
  },
  async capture(req) {
    const bytes = req.response_base64 != null ? Buffer.from(req.response_base64, "base64") : null;
    return { message: await capture(req.route, routeOf(req), { text: req.response, bytes, stream: !!req.stream }) };
  },
  // The SDK keeps no record of refusals: a 400 is the app's to handle.
  learn() {
    return { learnt: false };
  },
  estimate() {
    throw new Unsupported(
      "the AI SDK has no compaction: it keeps the messages array an app hands it (pruneMessages only drops reasoning and tool parts, it does not summarise)",
    );
  },
  compact() {
    throw new Unsupported("the AI SDK has no compaction (see estimate)");
  },
  // Messages arrays are plain data: a branch is a copy, a reload a JSON round trip.
  branch(req) {
    const session = structuredClone(req.session);
    session.id = req.branch_id;
    return { session };
  },
  reload(req) {
    return { session: JSON.parse(JSON.stringify(req.session)) };
  },
  bye() {
    return {};
  },
};

/** answer runs one request line and returns the reply object. */
async function answer(line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    return { id: 0, error: { message: `request is not JSON: ${e.message}` } };
  }
  const id = req.id ?? 0;
  const step = Object.hasOwn(steps, req.cmd) ? steps[req.cmd] : null;
  if (!step) return { id, error: { message: `unknown command ${JSON.stringify(req.cmd)}` } };
  try {
    return { id, result: await step(req) };
  } catch (e) {
    if (e instanceof Unsupported) return { id, unsupported: { reason: e.message } };
    process.stderr.write(`ai-sdk connector: ${req.cmd}: ${e && e.stack ? e.stack.split("\n")[0] : e}\n`);
    return { id, error: { message: `${req.cmd}: ${e && e.message ? e.message : String(e)}` } };
  }
}

async function main() {
  const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) {
    if (!line.trim()) continue;
    const reply = await answer(line);
    process.stdout.write(JSON.stringify(reply) + "\n");
    if (reply.result && JSON.parse(line).cmd === "bye") break;
  }
}

main().catch((e) => {
  process.stderr.write(`ai-sdk connector: ${e && e.stack ? e.stack : e}\n`);
  process.exit(1);
});
