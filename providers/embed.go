package providers

import (
	"embed"
	"io/fs"
)

// embedded holds the committed profiles, so the binary works outside the
// repository.
//
//go:embed *.yaml
var embedded embed.FS

// Embedded returns the profiles compiled into the binary, validated and
// sorted by name. Errors name each file as providers/<name>.yaml.
func Embedded() ([]*Profile, error) {
	entries, err := fs.ReadDir(embedded, ".")
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return parseAll(names, func(name string) (*Profile, error) {
		data, err := embedded.ReadFile(name)
		if err != nil {
			return nil, err
		}
		return Parse("providers/"+name, data)
	})
}
