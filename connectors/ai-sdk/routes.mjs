// Route mapping: which AI SDK provider package a user of the SDK picks for a
// replaycheck route (api mode, provider id, base URL, model), and the
// language model it builds, given the fetch the SDK will call.
//
// Every model gets a dummy key and the route's base URL: the fetch never
// reaches the network (wire.mjs), so neither is ever sent anywhere.

import { createAnthropic } from "@ai-sdk/anthropic";
import { createAlibaba } from "@ai-sdk/alibaba";
import { createAmazonBedrock } from "@ai-sdk/amazon-bedrock";
import { createBedrockAnthropic } from "@ai-sdk/amazon-bedrock/anthropic";
import { createCerebras } from "@ai-sdk/cerebras";
import { createDeepSeek } from "@ai-sdk/deepseek";
import { createFireworks } from "@ai-sdk/fireworks";
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createVertexAnthropic } from "@ai-sdk/google-vertex/anthropic/edge";
import { createGroq } from "@ai-sdk/groq";
import { createMistral } from "@ai-sdk/mistral";
import { createMoonshotAI } from "@ai-sdk/moonshotai";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createOpenRouter } from "@openrouter/ai-sdk-provider";

const KEY = "replaycheck-offline";

/** hostOf returns the lower-cased hostname of a base URL ("" when unparsable). */
function hostOf(baseURL) {
  try {
    return new URL(baseURL).hostname.toLowerCase();
  } catch {
    return "";
  }
}

/** regionOf reads the AWS region out of a bedrock-runtime host. */
function regionOf(host) {
  const m = /^bedrock-runtime[.-]([a-z0-9-]+)\.amazonaws\.com$/.exec(host);
  return m ? m[1] : "us-east-1";
}

/** trimSlash drops trailing slashes from a base URL. */
function trimSlash(u) {
  return u.replace(/\/+$/, "");
}

const bedrockCredentials = (host) => ({
  region: regionOf(host),
  accessKeyId: "AKIAREPLAYCHECK0000",
  secretAccessKey: "replaycheck-offline-secret",
});

/**
 * A chat route's package, by provider id or host, checked in order; the first
 * match wins. `name` is the package's provider-options key: the key under
 * which it stores (and reads back) provider metadata.
 */
const CHAT = [
  {
    pkg: "@ai-sdk/openai (chat)",
    when: (p, h) => h === "api.openai.com",
    make: (r, fetch) => createOpenAI({ apiKey: KEY, baseURL: r.base_url, fetch }).chat(r.model),
    key: "openai",
  },
  {
    pkg: "@openrouter/ai-sdk-provider",
    when: (p, h) => p === "openrouter" || h === "openrouter.ai",
    make: (r, fetch) => createOpenRouter({ apiKey: KEY, baseURL: r.base_url, fetch }).chat(r.model),
    key: "openrouter",
  },
  {
    pkg: "@ai-sdk/deepseek",
    when: (p, h) => p === "deepseek" || h === "api.deepseek.com",
    make: (r, fetch) => createDeepSeek({ apiKey: KEY, baseURL: r.base_url, fetch })(r.model),
    key: "deepseek",
  },
  {
    pkg: "@ai-sdk/moonshotai",
    when: (p, h) => p.startsWith("kimi") || p === "moonshot" || /(^|\.)(kimi\.com|moonshot\.(ai|cn))$/.test(h),
    make: (r, fetch) => createMoonshotAI({ apiKey: KEY, baseURL: r.base_url, fetch })(r.model),
    key: "moonshotai",
  },
  {
    pkg: "@ai-sdk/mistral",
    when: (p, h) => p === "mistral" || h === "api.mistral.ai",
    make: (r, fetch) => createMistral({ apiKey: KEY, baseURL: r.base_url, fetch })(r.model),
    key: "mistral",
  },
  {
    pkg: "@ai-sdk/groq",
    when: (p, h) => p === "groq" || h === "api.groq.com",
    make: (r, fetch) => createGroq({ apiKey: KEY, baseURL: r.base_url, fetch })(r.model),
    key: "groq",
  },
  {
    pkg: "@ai-sdk/cerebras",
    when: (p, h) => p === "cerebras" || h === "api.cerebras.ai",
    make: (r, fetch) => createCerebras({ apiKey: KEY, baseURL: r.base_url, fetch })(r.model),
    key: "cerebras",
  },
  {
    pkg: "@ai-sdk/fireworks",
    when: (p, h) => p === "fireworks" || h === "api.fireworks.ai",
    make: (r, fetch) => createFireworks({ apiKey: KEY, baseURL: r.base_url, fetch })(r.model),
    key: "fireworks",
  },
  {
    pkg: "@ai-sdk/alibaba",
    when: (p, h) => p === "dashscope" || p === "alibaba" || h.startsWith("dashscope"),
    make: (r, fetch) => createAlibaba({ apiKey: KEY, baseURL: r.base_url, fetch })(r.model),
    key: "alibaba",
  },
];

/** The fallback for every other chat route: OpenAI-compatible, named by its provider id. */
function compatible(r) {
  const name = (r.provider || "custom").trim().toLowerCase() || "custom";
  return {
    pkg: `@ai-sdk/openai-compatible (name "${name}")`,
    make: (rr, fetch) => createOpenAICompatible({ name, apiKey: KEY, baseURL: rr.base_url, fetch })(rr.model),
    key: name,
  };
}

/**
 * resolve returns {pkg, key, dialect, make(fetch)} for a route: the package
 * name (for reports), the provider-options key, the storage dialect of its
 * turns, and a constructor of the language model calling `fetch`.
 */
export function resolve(route) {
  const mode = route.api_mode || "chat";
  const p = (route.provider || "").trim().toLowerCase();
  const host = hostOf(route.base_url);
  const base = trimSlash(route.base_url || "");
  switch (mode) {
    case "chat": {
      const e = CHAT.find((c) => c.when(p, host)) || compatible(route);
      return { pkg: e.pkg, key: e.key, dialect: "chat", make: (fetch) => e.make(route, fetch) };
    }
    case "anthropic": {
      if (p === "bedrock" || host.endsWith(".amazonaws.com")) {
        return {
          pkg: "@ai-sdk/amazon-bedrock/anthropic",
          key: "anthropic",
          dialect: "anthropic",
          make: (fetch) => createBedrockAnthropic({ ...bedrockCredentials(host), baseURL: base, fetch })(route.model),
        };
      }
      if (p === "vertex" || host.endsWith("aiplatform.googleapis.com")) {
        return {
          pkg: "@ai-sdk/google-vertex/anthropic",
          key: "anthropic",
          dialect: "anthropic",
          make: (fetch) =>
            createVertexAnthropic({ baseURL: base, fetch, generateAuthToken: async () => KEY })(route.model),
        };
      }
      return {
        pkg: "@ai-sdk/anthropic",
        key: "anthropic",
        dialect: "anthropic",
        make: (fetch) => createAnthropic({ apiKey: KEY, baseURL: base + "/v1", fetch })(route.model),
      };
    }
    case "bedrock-converse":
      return {
        pkg: "@ai-sdk/amazon-bedrock",
        key: "bedrock",
        dialect: "bedrock-converse",
        make: (fetch) => createAmazonBedrock({ ...bedrockCredentials(host), baseURL: base, fetch })(route.model),
      };
    case "gemini":
      return {
        pkg: "@ai-sdk/google",
        key: "google",
        dialect: "gemini",
        make: (fetch, generateId) => createGoogleGenerativeAI({ apiKey: KEY, baseURL: base, fetch, ...(generateId && { generateId }) })(route.model),
      };
    case "responses":
      return {
        pkg: "@ai-sdk/openai (responses)",
        key: "openai",
        dialect: "responses",
        make: (fetch) => createOpenAI({ apiKey: KEY, baseURL: base, fetch }).responses(route.model),
      };
    default:
      return null;
  }
}
