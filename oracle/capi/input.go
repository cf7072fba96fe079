package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// previousAnnotation marks an input item as the state before the change, as render-clusterclass
// reads it: such objects are created first, and the other inputs update them.
const previousAnnotation = "render-clusterclass.dev/previous"

// inputs is what the oracle is asked about, split the way the API server and the controllers see it.
type inputs struct {
	crds     []*unstructured.Unstructured
	previous []*unstructured.Unstructured
	current  []*unstructured.Unstructured
}

// readInputs reads YAML streams or ResourceLists from the given paths ("-" is stdin) and CRDs from
// the given files or directories. YAML becomes JSON through sigs.k8s.io/yaml, as kubectl reads it.
func readInputs(paths, previousPaths, crdPaths []string) (*inputs, error) {
	in := &inputs{}
	add := func(objs []*unstructured.Unstructured, previous bool) {
		for _, o := range objs {
			switch {
			case isCRD(o):
				in.crds = append(in.crds, o)
			case previous || o.GetAnnotations()[previousAnnotation] == "true":
				in.previous = append(in.previous, o)
			default:
				in.current = append(in.current, o)
			}
		}
	}
	for _, p := range paths {
		objs, err := readPath(p)
		if err != nil {
			return nil, err
		}
		add(objs, false)
	}
	for _, p := range previousPaths {
		objs, err := readPath(p)
		if err != nil {
			return nil, err
		}
		add(objs, true)
	}
	for _, p := range crdPaths {
		objs, err := readPath(p)
		if err != nil {
			return nil, err
		}
		for _, o := range objs {
			if isCRD(o) {
				in.crds = append(in.crds, o)
			}
		}
	}
	return in, nil
}

func isCRD(o *unstructured.Unstructured) bool {
	return o.GetKind() == "CustomResourceDefinition" && strings.HasPrefix(o.GetAPIVersion(), "apiextensions.k8s.io/")
}

// readPath reads a file, every .yaml/.yml/.json file below a directory (sorted), or stdin.
func readPath(path string) ([]*unstructured.Unstructured, error) {
	if path == "-" {
		return readStream(os.Stdin, "stdin")
	}
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return readStream(f, path)
	}
	var files []string
	err = filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		ext := filepath.Ext(p)
		if !d.IsDir() && (ext == ".yaml" || ext == ".yml" || ext == ".json") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var out []*unstructured.Unstructured
	for _, f := range files {
		objs, err := readPath(f)
		if err != nil {
			return nil, err
		}
		out = append(out, objs...)
	}
	return out, nil
}

// readStream splits a YAML stream into documents; a ResourceList contributes its items.
func readStream(r io.Reader, name string) ([]*unstructured.Unstructured, error) {
	reader := utilyaml.NewYAMLReader(bufio.NewReader(r))
	var out []*unstructured.Unstructured
	for i := 0; ; i++ {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: document %d: %w", name, i, err)
		}
		if len(bytes.TrimSpace(doc)) == 0 {
			continue
		}
		js, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return nil, fmt.Errorf("%s: document %d: %w", name, i, err)
		}
		if string(bytes.TrimSpace(js)) == "null" {
			continue
		}
		var obj map[string]interface{}
		if err := utiljson.Unmarshal(js, &obj); err != nil {
			return nil, fmt.Errorf("%s: document %d: %w", name, i, err)
		}
		u := &unstructured.Unstructured{Object: obj}
		if u.GetKind() == "" || u.GetAPIVersion() == "" {
			continue // not a Kubernetes object (Helm values, docs): render-clusterclass skips these too
		}
		if u.GetKind() == "ResourceList" {
			items, _, _ := unstructured.NestedSlice(u.Object, "items")
			for _, item := range items {
				if m, ok := item.(map[string]interface{}); ok {
					out = append(out, &unstructured.Unstructured{Object: m})
				}
			}
			continue
		}
		out = append(out, u)
	}
}
