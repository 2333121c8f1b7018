// decide reports the carriers the route's SDK package actually sends, found
// by asking the package: a probe session (a reasoning tool turn with a Gemini
// signature on its call, its result, then a bare tool turn) is shaped through
// the SDK, and the decision is read off the body. Nothing here comes from
// replaycheck's route table.

import { shape } from "./sdk.mjs";

const PROBE = {
  id: "aisdk-decide-probe",
  messages: [
    { role: "user", content: "probe" },
    {
      role: "assistant",
      content: null,
      reasoning_content: "probe reasoning",
      tool_calls: [
        {
          id: "call_probe_1",
          type: "function",
          function: { name: "lookup", arguments: "{}" },
          extra_content: { google: { thought_signature: "cHJvYmU=" } },
        },
      ],
    },
    { role: "tool", tool_call_id: "call_probe_1", name: "lookup", content: "ok" },
    { role: "assistant", content: null, tool_calls: [{ id: "call_probe_2", type: "function", function: { name: "lookup", arguments: "{}" } }] },
    { role: "tool", tool_call_id: "call_probe_2", name: "lookup", content: "ok" },
  ],
  model_config: {},
};

const TOOLS = [{ name: "lookup", description: "probe", parameters: { type: "object", properties: {} } }];

const CARRIERS = ["reasoning_content", "reasoning", "reasoning_details"];

// The probe's answer depends only on the route, so it is kept per route: a
// pure function's memo, not session state.
const memo = new Map();

/** decide answers the protocol's decide step for a chat or native route. */
export async function decide(route, resolved) {
  if (resolved.dialect !== "chat") {
    return {
      carriers: [],
      pad: false,
      native: true,
      prior_thinking: true,
      row: "native",
      reasons: [`${resolved.pkg} replays the turn through its own convert function`],
    };
  }
  const k = JSON.stringify([route.provider, route.base_url, route.model, resolved.pkg]);
  if (!memo.has(k)) memo.set(k, await probe(route, resolved));
  return structuredClone(memo.get(k));
}

async function probe(route, resolved) {
  const body = await shape(route, resolved, PROBE, { tools: TOOLS });
  const asst = (body.messages || []).filter((m) => m.role === "assistant");
  const [first, bare] = asst;
  const carriers = first ? CARRIERS.filter((c) => first[c] != null) : [];
  const pad = !!bare && bare.reasoning_content != null;
  const signs = !!first && (first.tool_calls || []).some((tc) => tc.extra_content != null);
  const reasons = [
    `${resolved.pkg} sends ${carriers.length ? carriers.join(", ") : "no reasoning carrier"} on a turn with reasoning`,
    pad ? `and reasoning_content ${JSON.stringify(bare.reasoning_content)} on a bare turn` : "and nothing on a bare turn",
  ];
  if (signs) reasons.push("it sends a tool call's Gemini thought signature (extra_content)");
  return { carriers, pad, native_fields: signs ? ["gemini"] : [], row: resolved.pkg, reasons };
}
