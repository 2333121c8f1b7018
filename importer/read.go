package importer

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tidwall/gjson"
	"go.yaml.in/yaml/v3"
)

// Read reads one recording: an OpenRouter e2e fixture directory, or a file
// whose format its name and content tell — *.chunks.txt and *.json are
// Vercel AI SDK fixtures, except a *.json holding an interactions list,
// which is a cassette of VCR.py's JSON serializer; *.yaml and *.yml
// (gzip-compressed or not, as the content's magic bytes say, or the
// base64 text of gzip bytes) are VCR.py cassettes when their requests
// carry a uri, go-vcr cassettes when they carry a url. Every error names
// the file, and the interaction index where there is one.
func Read(path string) (*Recording, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		if !IsOpenRouterFixture(path) {
			return nil, fmt.Errorf("%s: a directory that is no OpenRouter e2e fixture (no %s)", path, openRouterRequest)
		}
		return readOpenRouterE2E(path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if z, ok := base64Gzip(data); ok {
		data = z
	}
	if bytes.HasPrefix(data, gzipMagic) {
		if data, err = gunzip(data); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return readCassette(path, data)
	}
	switch name := strings.ToLower(filepath.Base(path)); {
	case strings.HasSuffix(name, ".chunks.txt"):
		return readAISDKChunks(path, data)
	case strings.HasSuffix(name, ".json") && !gjson.GetBytes(data, "interactions").IsArray():
		return readAISDKJSON(path, data)
	}
	return readCassette(path, data)
}

// base64Gzip undoes a serializer that writes the whole cassette as the
// base64 text of its gzip bytes (the YamlGzipSerializer some agent
// projects register with pytest-recording: yamlserializer.serialize, then
// gzip.compress, then base64.b64encode): ok when data is nothing but
// base64 whose bytes are a gzip stream.
func base64Gzip(data []byte) ([]byte, bool) {
	text := bytes.TrimSpace(data)
	if len(text) < 4 || !bytes.HasPrefix(text, []byte("H4sI")) { // base64 of the gzip magic and deflate method
		return nil, false
	}
	z, err := base64.StdEncoding.DecodeString(string(text))
	if err != nil || !bytes.HasPrefix(z, gzipMagic) {
		return nil, false
	}
	return z, true
}

// IsOpenRouterFixture reports whether dir holds an OpenRouter e2e fixture.
func IsOpenRouterFixture(dir string) bool {
	info, err := os.Stat(filepath.Join(dir, openRouterRequest))
	return err == nil && !info.IsDir()
}

// readCassette reads a YAML cassette, VCR.py or go-vcr.
func readCassette(path string, data []byte) (*Recording, error) {
	root, err := parseYAML(data)
	if err != nil {
		return nil, yamlError(path, data, err)
	}
	if root.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("%s: %s", path, lineErr(root, "a cassette is a mapping, got a %s", kindName(root)))
	}
	if isGoVCR(root) {
		return readGoVCR(path, root)
	}
	return vcrpyLayout.read(path, root)
}

// isGoVCR tells the two YAML formats apart: go-vcr requests carry url,
// VCR.py requests uri; a cassette without interactions is go-vcr when it
// says version 2 or has a provenance block.
func isGoVCR(root *yaml.Node) bool {
	if list := field(root, "interactions"); list != nil && list.Kind == yaml.SequenceNode && len(list.Content) > 0 {
		req := field(list.Content[0], "request")
		return field(req, "url") != nil && field(req, "uri") == nil
	}
	v := field(root, "version")
	return field(root, "provenance") != nil || (v != nil && v.Value == "2")
}

var yamlLine = regexp.MustCompile(`line (\d+)`)

// yamlError names the interaction a YAML syntax error falls in, counting
// the items of the interactions list that start before the error's line.
func yamlError(path string, data []byte, err error) error {
	m := yamlLine.FindStringSubmatch(err.Error())
	if m == nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	errLine, _ := strconv.Atoi(m[1])
	if i, ok := interactionAt(data, errLine); ok {
		return interactionError(path, i, err)
	}
	return fmt.Errorf("%s: %w", path, err)
}

// interactionAt returns the index of the interactions-list item that line
// (1-based) falls in: items are the lines that start with "-" at the
// indentation of the list's first item.
func interactionAt(data []byte, line int) (int, bool) {
	lines := strings.Split(string(data), "\n")
	start := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "interactions:") {
			start = i
			break
		}
	}
	if start < 0 || start+1 >= line {
		return 0, false
	}
	indent, n := -1, -1
	for i := start + 1; i < len(lines) && i < line; i++ {
		trimmed := strings.TrimLeft(lines[i], " ")
		if !strings.HasPrefix(trimmed, "-") {
			continue
		}
		d := len(lines[i]) - len(trimmed)
		if indent < 0 {
			indent = d
		}
		if d == indent {
			n++
		}
	}
	return n, n >= 0
}

// An Entry is one thing found under an import root: a recording, or a
// file that is not one and why, so nothing is passed over silently.
type Entry struct {
	// Path is the file or fixture directory.
	Path string
	// Rel is Path relative to the root, slash-separated ("." for the root
	// itself when it is a file).
	Rel string
	// Files are the files the entry consists of, relative to the root.
	Files []string
	// Skip says why the entry is not read as a recording; "" for a
	// recording.
	Skip string
}

// recordingSuffixes are the file names read as recordings.
var recordingSuffixes = []string{".yaml", ".yml", ".yaml.gz", ".yml.gz", ".chunks.txt", ".json"}

// ManifestName is the file that cites the sources of the recordings
// beside it (see [FindSource]).
const ManifestName = "MANIFEST.md"

// Walk lists what an import root holds, in path order: a file is one
// entry; a directory gives one entry per recording file, one per OpenRouter
// fixture directory (its three files together) and one skip entry per
// other file, saying why.
func Walk(root string) ([]Entry, error) {
	info, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return []Entry{{Path: root, Rel: filepath.Base(root), Files: []string{filepath.Base(root)}}}, nil
	}
	var out []Entry
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch {
			case path != root && strings.HasPrefix(d.Name(), "."):
				out = append(out, Entry{Path: path, Rel: rel, Files: []string{rel + "/"}, Skip: "a hidden directory"})
				return filepath.SkipDir
			case IsOpenRouterFixture(path):
				e := Entry{Path: path, Rel: rel}
				for _, f := range OpenRouterFiles {
					e.Files = append(e.Files, rel+"/"+f)
				}
				out = append(out, e)
				out = append(out, otherFiles(path, rel)...)
				return filepath.SkipDir
			}
			return nil
		}
		e := Entry{Path: path, Rel: rel, Files: []string{rel}}
		name := strings.ToLower(d.Name())
		switch {
		case d.Name() == ManifestName:
			e.Skip = "the source manifest: read for the sources of the recordings beside it"
		case !slices.ContainsFunc(recordingSuffixes, func(s string) bool { return strings.HasSuffix(name, s) }):
			e.Skip = "not a recording (want " + strings.Join(recordingSuffixes, ", ") + " or an OpenRouter e2e fixture directory)"
		}
		out = append(out, e)
		return nil
	})
	return out, err
}

// otherFiles lists the files of a fixture directory that are not its three
// fixture files, as skip entries.
func otherFiles(dir, rel string) []Entry {
	des, err := os.ReadDir(dir)
	if err != nil {
		return []Entry{{Path: dir, Rel: rel, Files: []string{rel + "/"}, Skip: "unreadable: " + err.Error()}}
	}
	var out []Entry
	for _, d := range des {
		if slices.Contains(OpenRouterFiles, d.Name()) {
			continue
		}
		r := rel + "/" + d.Name()
		out = append(out, Entry{Path: filepath.Join(dir, d.Name()), Rel: r, Files: []string{r},
			Skip: "not part of the OpenRouter e2e fixture beside it"})
	}
	return out
}
