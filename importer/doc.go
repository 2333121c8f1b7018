// Package importer reads recorded LLM traffic kept in the formats agent
// projects already use, and turns it into replaycheck cassettes:
//
//   - VCR.py / pytest-recording YAML cassettes ([FormatVCRPy]): plain
//     body.string, pydantic-ai's parsed_body maps, gzip-compressed bodies,
//     !!binary bodies (Bedrock event-stream frames) and whole cassettes
//     compressed with gzip;
//   - go-vcr v3/v4 cassettes ([FormatGoVCR]);
//   - Vercel AI SDK fixtures: *.chunks.txt, one stream event per line
//     ([FormatAISDKChunks]), and whole *.json responses ([FormatAISDKJSON]);
//   - OpenRouter ai-sdk-provider e2e fixtures: a directory holding
//     request.json, response.jsonl and response.meta.json
//     ([FormatOpenRouterE2E]).
//
// One file per format reads it into a [Recording]: the source's
// [Exchange]s in order, bodies decompressed and decoded, every error naming
// the file and the interaction index (and the YAML line, JSON line or
// stream offset where there is one). [Place] then picks the matrix target
// of each exchange by host, path and model (see [Place] for the rule) and
// says why when none fits, and [Cassettes] writes the placed exchanges as
// go-vcr cassettes with imported provenance, scrubbed exactly as `record`
// scrubs. Nothing here reaches the network.
package importer
