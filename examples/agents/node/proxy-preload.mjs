// Makes Node's built-in fetch honour HTTPS_PROXY, HTTP_PROXY and NO_PROXY
// on a Node without NODE_USE_ENV_PROXY (Node 20, 22 before 22.21): load it
// before the agent, `node --import ./proxy-preload.mjs agent.mjs` or
// NODE_OPTIONS=--import=/abs/path/proxy-preload.mjs. It installs undici's
// EnvHttpProxyAgent (the npm package, pinned in package.json) as the
// global dispatcher, which the built-in fetch shares. On a Node that has
// NODE_USE_ENV_PROXY it is harmless. `replaycheck agent --intercept` sets
// the proxy and NODE_EXTRA_CA_CERTS.
import { EnvHttpProxyAgent, setGlobalDispatcher } from "undici";

if (process.env.HTTPS_PROXY || process.env.https_proxy || process.env.HTTP_PROXY || process.env.http_proxy) {
  setGlobalDispatcher(new EnvHttpProxyAgent());
}
