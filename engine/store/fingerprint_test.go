package store

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/maphash"
	"reflect"
	"testing"

	"github.com/replaycheck/replaycheck/engine"
)

// variant is a value of some type with one leaf set, named by its path.
type variant struct {
	path string
	v    reflect.Value
}

// variants returns values of t, each differing from the zero value, and
// from the others, in one place: every field of every struct reached, each
// string with two lengths, absent and empty slices and pointers, slices of
// one and of two items. A kind it does not know fails the test, so that a
// new field of engine.Message cannot go unseen.
func variants(t *testing.T, typ reflect.Type, path string, depth int) []variant {
	t.Helper()
	one := func(p string, v any) variant { return variant{p, reflect.ValueOf(v).Convert(typ)} }
	switch typ.Kind() {
	case reflect.String:
		return []variant{one(path+`="x"`, "x"), one(path+`="xy"`, "xy")}
	case reflect.Slice:
		if typ.Elem().Kind() == reflect.Uint8 {
			return []variant{one(path+"=``", []byte{}), one(path+"=`1`", []byte("1")), one(path+"=`12`", []byte("12"))}
		}
		out := []variant{{path + "=[]", reflect.MakeSlice(typ, 0, 0)}}
		for _, e := range variants(t, typ.Elem(), path+"[0]", depth+1) {
			s := reflect.MakeSlice(typ, 1, 1)
			s.Index(0).Set(e.v)
			out = append(out, variant{e.path, s})
			if depth == 0 {
				two := reflect.MakeSlice(typ, 2, 2)
				two.Index(1).Set(e.v)
				out = append(out, variant{path + "[1]:" + e.path, two})
			}
		}
		return out
	case reflect.Pointer:
		out := []variant{{path + "=&zero", reflect.New(typ.Elem())}}
		for _, e := range variants(t, typ.Elem(), "*"+path, depth+1) {
			p := reflect.New(typ.Elem())
			p.Elem().Set(e.v)
			out = append(out, variant{e.path, p})
		}
		return out
	case reflect.Struct:
		var out []variant
		for i := range typ.NumField() {
			f := typ.Field(i)
			for _, e := range variants(t, f.Type, path+"."+f.Name, depth) {
				s := reflect.New(typ).Elem()
				s.Field(i).Set(e.v)
				out = append(out, variant{e.path, s})
			}
		}
		return out
	case reflect.Map:
		out := []variant{{path + "={}", reflect.MakeMap(typ)}}
		for _, k := range []string{"k", "kk"} {
			for _, e := range variants(t, typ.Elem(), path+"["+k+"]", depth+1) {
				m := reflect.MakeMap(typ)
				m.SetMapIndex(reflect.ValueOf(k).Convert(typ.Key()), e.v)
				out = append(out, variant{e.path, m})
			}
		}
		return out
	}
	t.Fatalf("%s: kind %s: teach variants (and the fingerprint) this field", path, typ.Kind())
	return nil
}

// TestFingerprintSeesEveryField: any two messages whose storage JSON
// differs have different fingerprints. The messages differ from a base
// one (a role, the rest zero) in one leaf of any field, at any depth, and
// every pair of them is compared, so that a field left out of the
// fingerprint, or two fields hashed alike, is caught.
func TestFingerprintSeesEveryField(t *testing.T) {
	all := []variant{{"base", reflect.ValueOf(engine.Message{Role: "user"})}}
	for _, v := range variants(t, reflect.TypeFor[engine.Message](), "m", 0) {
		m := v.v.Interface().(engine.Message)
		if v.path == `m.Role="x"` || v.path == `m.Role="xy"` {
			all = append(all, v)
			continue
		}
		m.Role = "user"
		all = append(all, variant{v.path, reflect.ValueOf(m)})
	}
	var f fingerprinter
	f.h.SetSeed(maphash.MakeSeed())
	type seen struct {
		path string
		body []byte
	}
	byFP := map[uint64]seen{}
	for _, v := range all {
		m := v.v.Interface().(engine.Message)
		body, err := m.MarshalJSON()
		if err != nil {
			t.Fatalf("%s: %v", v.path, err)
		}
		fp := f.message(&m)
		if again := f.message(&m); again != fp {
			t.Fatalf("%s: fingerprint is not stable", v.path)
		}
		if prev, ok := byFP[fp]; ok && !bytes.Equal(prev.body, body) {
			t.Errorf("%s and %s have one fingerprint but different storage JSON:\n%s\n%s", prev.path, v.path, prev.body, body)
		}
		byFP[fp] = seen{v.path, body}
	}
	if len(all) < 80 {
		t.Fatalf("only %d variants: the walk over engine.Message lost fields", len(all))
	}
}

// TestFingerprintOfExtraIgnoresMapOrder: Extra is a map; its fingerprint,
// like its storage JSON, does not depend on iteration order.
func TestFingerprintOfExtraIgnoresMapOrder(t *testing.T) {
	var f fingerprinter
	f.h.SetSeed(maphash.MakeSeed())
	extra := map[string]json.RawMessage{}
	for i := range 32 {
		extra[fmt.Sprintf("k%02d", i)] = raw(fmt.Sprint(i))
	}
	m := engine.Message{Role: "assistant", Extra: extra}
	want := f.message(&m)
	for range 20 {
		if got := f.message(&m); got != want {
			t.Fatal("the fingerprint of Extra depends on map order")
		}
	}
}
