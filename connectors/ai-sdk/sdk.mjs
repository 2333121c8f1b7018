// The two steps that run the SDK's own code: shape calls generateText (or
// streamText) and keeps the body the provider package built; capture answers
// the same call with the recorded response and keeps the assistant message
// the SDK made of it. Neither ever reaches the network (wire.mjs).

import { generateText, jsonSchema, streamText, tool } from "ai";
import { toModel, toStored } from "./codec.mjs";
import { answeringFetch, Shaped, shapingFetch } from "./wire.mjs";

// The SDK's console warnings (a dropped unsigned reasoning part, say) would
// mix with the protocol on stdout: send them to stderr, where the harness
// quotes them.
globalThis.AI_SDK_LOG_WARNINGS = (w) => {
  process.stderr.write(`ai-sdk warning: ${JSON.stringify(w.warnings ?? w)}\n`);
};

/** Claude models that take only adaptive thinking (matrix.yaml anthropic.adaptive_thinking). */
function adaptiveOnly(model) {
  const m = model.toLowerCase();
  return /claude-(opus-4[.-]([7-9]|\d\d)|sonnet-([5-9]|\d\d)|haiku-(5[.-][5-9]|[6-9])|fable|mythos)/.test(m) || /(^|\/)claude-(fable|mythos)/.test(m);
}

/**
 * callOptions are the settings an SDK user passes to get reasoning from the
 * route's api mode: Anthropic thinking, Converse reasoningConfig on Claude,
 * Gemini includeThoughts, Responses encrypted reasoning with store false.
 * Chat routes need none: the packages read reasoning back by default.
 */
function callOptions(route, dialect) {
  const model = route.model || "";
  switch (dialect) {
    case "anthropic": {
      const thinking = adaptiveOnly(model) ? { type: "adaptive", display: "summarized" } : { type: "enabled", budgetTokens: 8000 };
      return { maxOutputTokens: 16000, providerOptions: { anthropic: { thinking } } };
    }
    case "bedrock-converse": {
      const claude = /anthropic\.claude|claude-/.test(model.toLowerCase()) && !/claude-3-5/.test(model.toLowerCase());
      return {
        maxOutputTokens: 16000,
        ...(claude && { providerOptions: { bedrock: { reasoningConfig: { type: "enabled", budgetTokens: 8000 } } } }),
      };
    }
    case "gemini":
      return { providerOptions: { google: { thinkingConfig: { includeThoughts: true } } } };
    case "responses":
      return {
        providerOptions: { openai: { store: false, include: ["reasoning.encrypted_content"], reasoningSummary: "auto" } },
      };
    default:
      return {};
  }
}

/** toolsOf turns the protocol's {name, description, parameters} into SDK tools (no execute). */
function toolsOf(list) {
  if (!Array.isArray(list) || list.length === 0) return undefined;
  const tools = {};
  for (const t of list) {
    tools[t.name] = tool({ description: t.description, inputSchema: jsonSchema(t.parameters ?? { type: "object" }) });
  }
  return tools;
}

/** errorText names an SDK error the way a reader needs it. */
function errorText(e) {
  if (!e) return "unknown error";
  const cause = e.cause && e.cause !== e ? `: ${errorText(e.cause)}` : "";
  return `${e.name || "Error"}: ${e.message}${cause}`;
}

/**
 * shape builds the request body the SDK sends for the stored session on
 * `resolved`'s route: the body the provider package's convert functions
 * produced, parsed.
 */
export async function shape(route, resolved, session, options) {
  const rec = {};
  const model = resolved.make(shapingFetch(rec));
  const ctx = { dialect: resolved.dialect, key: resolved.key };
  const { system, messages } = toModel(session.messages || [], ctx);
  const args = {
    model,
    system,
    messages,
    tools: toolsOf(options && options.tools),
    maxRetries: 0,
    ...callOptions(route, resolved.dialect),
  };
  let failure = null;
  if (options && options.stream) {
    const r = streamText({ ...args, onError: ({ error }) => (failure = error) });
    await r.consumeStream({ onError: (error) => (failure = failure ?? error) });
  } else {
    try {
      await generateText(args);
    } catch (e) {
      failure = e;
    }
  }
  if (rec.body == null) throw new Error(`the SDK built no request: ${errorText(failure)}`);
  if (failure && !isShaped(failure)) {
    process.stderr.write(`shape: after the request: ${errorText(failure)}\n`);
  }
  return JSON.parse(rec.body);
}

/** isShaped reports whether an SDK error wraps the shaping fetch's stop. */
function isShaped(e) {
  for (let c = e; c; c = c.cause) if (c instanceof Shaped) return true;
  return false;
}

/**
 * capture answers the SDK with the recorded response (`text`, or `bytes` for
 * a Bedrock event stream) and returns the assistant message the SDK kept, in
 * storage form. Tools are not declared: the SDK keeps a call to an
 * undeclared tool as it came, and answers it with an error result that is
 * not kept.
 */
export async function capture(route, resolved, { text, bytes, stream }) {
  let n = 0;
  const fetch = answeringFetch({ text, bytes, stream });
  const model = resolved.make(fetch, () => `call_${n++}`);
  const args = { model, prompt: "replaycheck capture", maxRetries: 0, ...callOptions(route, resolved.dialect) };
  let response;
  if (stream) {
    let failure = null;
    const r = streamText({ ...args, onError: ({ error }) => (failure = error) });
    await r.consumeStream({ onError: (error) => (failure = failure ?? error) });
    if (failure) throw new Error(`the SDK could not read the stream: ${errorText(failure)}`);
    response = await r.response;
  } else {
    response = (await generateText(args)).response;
  }
  const msg = (response.messages || []).find((m) => m.role === "assistant");
  if (!msg) throw new Error("the SDK kept no assistant message from the response");
  const issuer = { provider: (route.provider || "").trim().toLowerCase(), host: hostOf(route.base_url), model: (route.model || "").trim() };
  return toStored(msg, { dialect: resolved.dialect, issuer });
}

function hostOf(u) {
  try {
    return new URL(u).hostname.toLowerCase();
  } catch {
    return "";
  }
}
