package importer

import (
	"regexp"
	"strings"
)

// A modelKind is what a model id says about who serves it, when no request
// was recorded: its family (the model's maker's name for it: claude,
// gemini, qwen, deepseek, gpt…) and its spelling, which differs by
// platform for the same model — "claude-sonnet-4-5" on Anthropic's API,
// "us.anthropic.claude-sonnet-4-5-v1:0" on Bedrock, "claude-sonnet-4-5@20250929"
// on Vertex, "anthropic/claude-sonnet-4.5" on a gateway.
type modelKind struct {
	family, spelling string
}

// The spellings a model id comes in.
const (
	spellingPlain   = "plain"   // the maker's own id
	spellingGateway = "gateway" // vendor/model, as aggregators name models
	spellingBedrock = "bedrock" // [region.]vendor.model[-vN:M]
	spellingVertex  = "vertex"  // model@version
)

var (
	bedrockID   = regexp.MustCompile(`^(?:(?:us|eu|apac|global|us-gov|jp|au|ca)\.)?[a-z0-9-]+\.([a-z][a-z0-9.-]*?)(?:-v\d+(?::\d+)?)?$`)
	familyStart = regexp.MustCompile(`^[a-z]+`)
)

// kindOf reads a model id's family and spelling; ok is false for an id
// that names no family (empty, or not starting with letters).
func kindOf(model string) (modelKind, bool) {
	id := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(model)), "models/") // Gemini's modelVersion may say models/<id>
	k := modelKind{spelling: spellingPlain}
	switch {
	case id == "":
		return k, false
	case strings.Contains(id, "/"):
		k.spelling, id = spellingGateway, id[strings.LastIndex(id, "/")+1:]
	case strings.Contains(id, "@"):
		k.spelling, id = spellingVertex, id[:strings.Index(id, "@")]
	default:
		if m := bedrockID.FindStringSubmatch(id); m != nil && strings.Count(id, ".") >= 1 && !strings.ContainsAny(id[:strings.Index(id, ".")], "0123456789") {
			k.spelling, id = spellingBedrock, m[1]
		}
	}
	k.family = familyStart.FindString(id)
	return k, k.family != ""
}
