// The fetch the SDK is given. It never reaches the network: shaping records
// the body the SDK built and stops the call there; capturing answers the
// SDK with the recorded response, so the SDK's own parser reads it.

/** The error a shaping fetch throws once it holds the body. */
export class Shaped extends Error {
  constructor(url, body) {
    super("replaycheck: request captured");
    this.url = url;
    this.body = body;
  }
}

/** bodyText reads a fetch body (string, bytes or stream) as UTF-8 text. */
async function bodyText(init) {
  const b = init && init.body;
  if (b == null) return "";
  if (typeof b === "string") return b;
  return await new Response(b).text();
}

/**
 * shapingFetch returns a fetch that records the request the SDK sends
 * ({url, body}) into `out` and throws Shaped, ending the SDK's call.
 */
export function shapingFetch(out) {
  return async (url, init) => {
    const text = await bodyText(init);
    out.url = String(url);
    out.body = text;
    throw new Shaped(out.url, text);
  };
}

/**
 * answeringFetch returns a fetch that answers every request with the
 * recorded response: text (a JSON body, or an SSE stream when `stream`) or
 * bytes (a Bedrock event stream).
 */
export function answeringFetch({ text, bytes, stream }) {
  return async () => {
    if (bytes) {
      return new Response(bytes, {
        status: 200,
        headers: { "content-type": "application/vnd.amazon.eventstream" },
      });
    }
    return new Response(text, {
      status: 200,
      headers: { "content-type": stream ? "text/event-stream" : "application/json" },
    });
  };
}
