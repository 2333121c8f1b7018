// The codec between replaycheck's stored session messages (protocol/README.md,
// "Data") and the AI SDK's ModelMessage objects, the form an SDK app keeps
// its history in.
//
// toStored turns the assistant message the SDK answered (result.response
// .messages) into the storage form; toModel turns stored messages back into
// the ModelMessages the SDK would have kept for them, with each opaque value
// under the provider-options key the capturing package wrote it to. The SDK's
// own convert functions then decide what reaches the wire: this file never
// decides a carrier.
//
// The harness edits stored sessions (a bare turn, a foreign turn, a tampered
// signature), so toModel reads the stored fields every time and keeps no cache.

/** The provider-options key each native dialect's package writes metadata to. */
const NATIVE_KEY = { anthropic: "anthropic", "bedrock-converse": "bedrock", responses: "openai", gemini: "google" };

/** textOf joins a stored content value (string, array of parts or null) into text. */
function textOf(content) {
  if (content == null) return "";
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((p) => (typeof p === "string" ? p : p && typeof p.text === "string" ? p.text : ""))
      .join("");
  }
  return "";
}

/** parseArgs reads a tool call's JSON arguments; unparsable text stays a string. */
function parseArgs(s) {
  if (s == null || s === "") return {};
  try {
    return JSON.parse(s);
  } catch {
    return s;
  }
}

/** readableReasoning is the reasoning text a plain stored turn holds, from any carrier. */
function readableReasoning(m) {
  if (typeof m.reasoning_content === "string") return m.reasoning_content;
  if (typeof m.reasoning === "string") return m.reasoning;
  if (Array.isArray(m.reasoning_details)) {
    const t = m.reasoning_details
      .filter((d) => d && (d.type === "reasoning.text" || d.type === "reasoning.summary" || d.type === "thinking"))
      .map((d) => d.text ?? d.summary ?? d.thinking ?? "")
      .join("");
    return t || null;
  }
  return null;
}

/** signatureOf reads the Gemini thought signature of a stored extra_content. */
function signatureOf(extra) {
  const s = extra && extra.google && extra.google.thought_signature;
  return typeof s === "string" && s.trim() !== "" ? s : null;
}

// ---------------------------------------------------------------- to the SDK

/** nativeParts rebuilds a turn's parts from its native blocks, in their order. */
function nativeParts(nt) {
  const key = NATIVE_KEY[nt.dialect];
  const parts = [];
  for (const b of nt.blocks || []) {
    if (!b || typeof b !== "object") continue;
    switch (nt.dialect) {
      case "anthropic":
        if (b.type === "thinking") {
          const po = typeof b.signature === "string" ? { [key]: { signature: b.signature } } : undefined;
          parts.push({ type: "reasoning", text: b.thinking ?? "", ...(po && { providerOptions: po }) });
        } else if (b.type === "redacted_thinking") {
          parts.push({ type: "reasoning", text: "", providerOptions: { [key]: { redactedData: b.data } } });
        } else if (b.type === "text") {
          parts.push({ type: "text", text: b.text ?? "" });
        } else if (b.type === "tool_use") {
          parts.push({ type: "tool-call", toolCallId: b.id, toolName: b.name, input: b.input ?? {} });
        }
        break;
      case "bedrock-converse":
        if (b.reasoningContent && b.reasoningContent.reasoningText) {
          const rt = b.reasoningContent.reasoningText;
          const po = typeof rt.signature === "string" ? { [key]: { signature: rt.signature } } : undefined;
          parts.push({ type: "reasoning", text: rt.text ?? "", ...(po && { providerOptions: po }) });
        } else if (b.reasoningContent && b.reasoningContent.redactedContent != null) {
          // The package keeps Converse's redactedContent under its own name.
          parts.push({ type: "reasoning", text: "", providerOptions: { [key]: { redactedContent: b.reasoningContent.redactedContent } } });
        } else if (typeof b.text === "string") {
          parts.push({ type: "text", text: b.text });
        } else if (b.toolUse) {
          parts.push({ type: "tool-call", toolCallId: b.toolUse.toolUseId, toolName: b.toolUse.name, input: b.toolUse.input ?? {} });
        }
        break;
      case "responses":
        if (b.type === "reasoning") {
          const text = (b.summary || []).map((s) => s.text ?? "").join("\n");
          const meta = { itemId: b.id };
          if (b.encrypted_content != null) meta.reasoningEncryptedContent = b.encrypted_content;
          parts.push({ type: "reasoning", text, providerOptions: { [key]: meta } });
        } else if (b.type === "message") {
          const text = (b.content || []).map((c) => c.text ?? "").join("");
          parts.push({ type: "text", text, providerOptions: { [key]: { itemId: b.id } } });
        } else if (b.type === "function_call") {
          parts.push({
            type: "tool-call",
            toolCallId: b.call_id,
            toolName: b.name,
            input: parseArgs(b.arguments),
            providerOptions: { [key]: { itemId: b.id } },
          });
        }
        break;
      default:
        return null;
    }
  }
  return parts;
}

/**
 * plainParts rebuilds a chat-stored (or Gemini-stored) assistant turn: its
 * readable reasoning, its text, its tool calls. `sigKey` is the key the
 * capturing package kept Gemini thought signatures under; `rdKey`, when set,
 * the key OpenRouter's package kept reasoning_details under.
 */
function plainParts(m, sigKey) {
  const parts = [];
  const reasoning = readableReasoning(m);
  const details = Array.isArray(m.reasoning_details) && m.reasoning_details.length > 0 ? m.reasoning_details : null;
  if (reasoning != null || details) {
    const po = details ? { providerOptions: { openrouter: { reasoning_details: details } } } : {};
    parts.push({ type: "reasoning", text: reasoning ?? "", ...po });
  }
  const text = textOf(m.content);
  const msgSig = signatureOf(m.extra_content);
  if (text !== "" || msgSig) {
    parts.push({ type: "text", text, ...(msgSig && { providerOptions: { [sigKey]: { thoughtSignature: msgSig } } }) });
  }
  for (const tc of m.tool_calls || []) {
    const sig = signatureOf(tc.extra_content);
    parts.push({
      type: "tool-call",
      toolCallId: tc.id,
      toolName: tc.function?.name ?? "",
      input: parseArgs(tc.function?.arguments),
      ...(sig && { providerOptions: { [sigKey]: { thoughtSignature: sig } } }),
    });
  }
  return parts;
}

/**
 * toModel converts stored messages into {system, messages} for generateText.
 * `ctx.key` is the route's provider-options key (the package that captured a
 * chat turn on this route wrote its metadata there).
 */
export function toModel(stored, ctx) {
  const out = [];
  const systems = [];
  const toolNames = new Map();
  for (const m of stored) {
    switch (m.role) {
      case "system":
      case "developer":
        systems.push(textOf(m.content));
        break;
      case "user":
        out.push({ role: "user", content: textOf(m.content) });
        break;
      case "assistant": {
        const nt = m.native;
        let parts = nt && NATIVE_KEY[nt.dialect] && nt.dialect !== "gemini" ? nativeParts(nt) : null;
        if (!parts) parts = plainParts(m, ctx.dialect === "gemini" ? "google" : ctx.key);
        for (const p of parts) if (p.type === "tool-call") toolNames.set(p.toolCallId, p.toolName);
        out.push({ role: "assistant", content: parts });
        break;
      }
      case "tool": {
        const part = {
          type: "tool-result",
          toolCallId: m.tool_call_id,
          toolName: m.name || toolNames.get(m.tool_call_id) || "",
          output: { type: "text", value: textOf(m.content) },
        };
        // Consecutive results of one turn are one tool message, as the SDK keeps them.
        const last = out[out.length - 1];
        if (last && last.role === "tool") last.content.push(part);
        else out.push({ role: "tool", content: [part] });
        break;
      }
      default:
        break;
    }
  }
  return { system: systems.length ? systems.join("\n\n") : undefined, messages: out };
}

// ---------------------------------------------------------------- from the SDK

/** metaOf returns the first provider-metadata object of a part that has `field`. */
function metaOf(part, field) {
  const po = part.providerOptions || {};
  for (const k of Object.keys(po)) if (po[k] && po[k][field] != null) return po[k][field];
  return undefined;
}

/**
 * toStored turns the SDK's assistant ModelMessage into the storage form of
 * the route's dialect. `issuer` is the route key a Responses turn records.
 */
export function toStored(msg, ctx) {
  const parts = Array.isArray(msg.content) ? msg.content : [{ type: "text", text: String(msg.content ?? "") }];
  let text = "";
  let reasoning = null;
  let details = null;
  let msgSig = null;
  const calls = [];
  const blocks = [];
  for (const p of parts) {
    if (p.type === "reasoning") {
      reasoning = (reasoning ?? "") + (p.text ?? "");
      const rd = metaOf(p, "reasoning_details");
      if (Array.isArray(rd) && (!details || rd.length > details.length)) details = rd;
      const sig = metaOf(p, "signature");
      const redacted = metaOf(p, "redactedData") ?? metaOf(p, "redactedContent");
      if (ctx.dialect === "anthropic") {
        blocks.push(
          redacted != null
            ? { type: "redacted_thinking", data: redacted }
            : { type: "thinking", thinking: p.text ?? "", ...(sig != null && { signature: sig }) },
        );
      } else if (ctx.dialect === "bedrock-converse") {
        blocks.push(
          redacted != null
            ? { reasoningContent: { redactedContent: redacted } }
            : { reasoningContent: { reasoningText: { text: p.text ?? "", ...(sig != null && { signature: sig }) } } },
        );
      } else if (ctx.dialect === "responses") {
        const item = { id: metaOf(p, "itemId"), type: "reasoning", summary: p.text ? [{ type: "summary_text", text: p.text }] : [] };
        const enc = metaOf(p, "reasoningEncryptedContent");
        if (enc != null) item.encrypted_content = enc;
        blocks.push(item);
      }
    } else if (p.type === "text") {
      text += p.text ?? "";
      const sig = metaOf(p, "thoughtSignature");
      if (sig) msgSig = sig;
      if (ctx.dialect === "anthropic") blocks.push({ type: "text", text: p.text ?? "" });
      else if (ctx.dialect === "bedrock-converse") blocks.push({ text: p.text ?? "" });
      else if (ctx.dialect === "responses")
        blocks.push({ id: metaOf(p, "itemId"), type: "message", role: "assistant", content: [{ type: "output_text", text: p.text ?? "" }] });
    } else if (p.type === "tool-call") {
      const args = typeof p.input === "string" ? p.input : JSON.stringify(p.input ?? {});
      const tc = { id: p.toolCallId, type: "function", function: { name: p.toolName, arguments: args } };
      const sig = metaOf(p, "thoughtSignature");
      if (sig) tc.extra_content = { google: { thought_signature: sig } };
      const rd = metaOf(p, "reasoning_details");
      if (Array.isArray(rd) && (!details || rd.length > details.length)) details = rd;
      if (ctx.dialect === "anthropic") blocks.push({ type: "tool_use", id: p.toolCallId, name: p.toolName, input: p.input ?? {} });
      else if (ctx.dialect === "bedrock-converse") blocks.push({ toolUse: { toolUseId: p.toolCallId, name: p.toolName, input: p.input ?? {} } });
      else if (ctx.dialect === "responses") {
        const itemId = metaOf(p, "itemId");
        tc.call_id = p.toolCallId;
        if (itemId) tc.response_item_id = itemId;
        blocks.push({ id: itemId, type: "function_call", status: "completed", arguments: args, call_id: p.toolCallId, name: p.toolName });
      }
      calls.push(tc);
    }
  }
  const out = { role: "assistant", content: calls.length > 0 && text === "" ? null : text };
  if (calls.length > 0) out.tool_calls = calls;
  if (reasoning != null) out.reasoning_content = reasoning;
  if (details) out.reasoning_details = details;
  if (msgSig) out.extra_content = { google: { thought_signature: msgSig } };
  if (ctx.dialect === "bedrock-converse") {
    const rd = blocks
      .filter((b) => b.reasoningContent && b.reasoningContent.reasoningText)
      .map((b) => ({ type: "thinking", thinking: b.reasoningContent.reasoningText.text, ...(b.reasoningContent.reasoningText.signature != null && { signature: b.reasoningContent.reasoningText.signature }) }));
    if (rd.length) out.reasoning_details = rd;
  }
  if (ctx.dialect === "anthropic" || ctx.dialect === "bedrock-converse" || ctx.dialect === "responses") {
    out.native = { dialect: ctx.dialect, blocks };
    if (ctx.dialect === "responses" && ctx.issuer) out.native.issuer = ctx.issuer;
  }
  return out;
}
