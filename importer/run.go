package importer

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"

	"github.com/replaycheck/replaycheck/matrix"
	"github.com/replaycheck/replaycheck/providers"
	"github.com/replaycheck/replaycheck/suites/harness"
)

// Options configure [Import].
type Options struct {
	// Matrix holds the targets exchanges are placed at.
	Matrix *matrix.File
	// Out is the cassette directory: cassettes go to
	// Out/<target>/recorded/<name>.yaml.
	Out string
	// Target, when set, places every exchange at this target (--target).
	Target string
	// Name names the cassettes of a single source (--name); by default a
	// source's name is its path below the import root ([Name]).
	Name string
	// Source cites the sources given on the command line; it wins over a
	// MANIFEST.md. Its Path is the path of a single file, or the path in
	// the repository of a directory root, which each file's path below the
	// root is joined to.
	Source Source
	// DryRun reads and places everything and writes nothing.
	DryRun bool
	// Profiles are the provider profiles by name, which say what hosts a
	// target's provider speaks for ([Place]); nil means the profiles the
	// binary carries ([providers.Embedded]).
	Profiles map[string]*providers.Profile
}

// A Result is what became of one entry under an import root.
type Result struct {
	Entry Entry
	// Recording is what was read; nil for a skipped entry or a read error.
	Recording *Recording
	// Source is the source cited for it.
	Source Source
	// Placements say where each exchange went, in source order.
	Placements []Placement
	// Written are the cassette paths written (or, on a dry run, that would be).
	Written []string
	// Err is why the entry could not be imported; nothing of it is written.
	Err error
}

// Import reads, places and writes every recording under the roots, and
// returns one result per entry (skipped files included, so nothing is
// passed over silently). A source whose reading, citing, scrubbing or
// writing fails gets its error in its result and writes nothing; the other
// sources go on. The error returned is for roots that cannot be walked
// and for options that contradict each other.
func Import(roots []string, opts Options) ([]Result, error) {
	if opts.Profiles == nil {
		list, err := providers.Embedded()
		if err != nil {
			return nil, err
		}
		opts.Profiles = providers.ByName(list)
	}
	var entries []Entry
	rootOf := map[string]string{}
	for _, r := range roots {
		es, err := Walk(r)
		if err != nil {
			return nil, err
		}
		for _, e := range es {
			rootOf[e.Path] = r
		}
		entries = append(entries, es...)
	}
	recordings := 0
	for _, e := range entries {
		if e.Skip == "" {
			recordings++
		}
	}
	if opts.Name != "" && recordings != 1 {
		return nil, fmt.Errorf("--name %s: names one source, but the import holds %d", opts.Name, recordings)
	}
	var out []Result
	names := map[string]string{}
	for _, e := range entries {
		res := Result{Entry: e}
		if e.Skip == "" {
			res.Err = importOne(&res, rootOf[e.Path], opts, names)
		}
		out = append(out, res)
	}
	return out, nil
}

func importOne(res *Result, root string, opts Options, names map[string]string) error {
	e := res.Entry
	rec, err := Read(e.Path)
	if err != nil {
		return err
	}
	res.Recording = rec
	if res.Source, err = citation(e, root, opts.Source); err != nil {
		return err
	}
	for _, x := range rec.Exchanges {
		res.Placements = append(res.Placements, Place(x, opts.Matrix, opts.Profiles, opts.Target))
	}
	cs, err := Cassettes(rec, res.Placements, opts.Matrix, res.Source)
	if err != nil {
		return err
	}
	name := opts.Name
	if name == "" {
		name = Name(e.Rel)
	}
	for _, c := range cs {
		p := c.Path(opts.Out, name)
		if other, dup := names[p]; dup {
			return fmt.Errorf("%s: its cassette %s would overwrite the one from %s: give it another --name", e.Path, p, other)
		}
		names[p] = e.Path
		res.Written = append(res.Written, p)
	}
	if opts.DryRun {
		return nil
	}
	for i, c := range cs {
		if err := harness.Write(res.Written[i], c.File); err != nil {
			res.Written = res.Written[:i]
			return err
		}
	}
	return nil
}

// citation resolves an entry's source: the command line's fields, then the
// manifest's, with the command line's path joined to the entry's path
// below a directory root.
func citation(e Entry, root string, given Source) (Source, error) {
	src := given
	if src.Path != "" && e.Path != root {
		rel, _ := filepath.Rel(root, e.Path)
		src.Path = path.Join(src.Path, filepath.ToSlash(rel))
	}
	found, _, err := FindSource(e.Path)
	if err != nil {
		return Source{}, err
	}
	src = src.Merge(found)
	if src.Repository == "" || src.Path == "" {
		return Source{}, errors.New(e.Path + ": its source is unknown: pass --source-repository and --source-path, or list it in a " + ManifestName + " beside it")
	}
	return src, nil
}
