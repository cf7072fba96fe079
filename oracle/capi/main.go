// Command capi-oracle answers, for the same input as render-clusterclass (a YAML stream or a KRM
// ResourceList of ClusterClasses, their templates, Clusters, optional CRDs and previous state),
// what Cluster API's own code at one pinned version does with it, as JSON on stdout:
//
//   - admission: every object created (or updated over its previous state) as kube-apiserver and
//     CAPI's webhooks admit it: API-server decoding (pruning, Strict field validation, structural
//     defaults), CAPI's conversion and defaulting webhooks, the CRD schema validation, CAPI's
//     validating webhooks; with the causes (type, field path, message) of each refusal;
//   - clusterClasses: status.variables as CAPI's ClusterClass controller computes them;
//   - clusters: each admitted Cluster's desired state from exp/topology/desiredstate with the inline
//     patch engine, every object with its role, and what the API server says when it is applied.
//
// It is a test-time tool of render-clusterclass (never shipped, never a runtime dependency); build
// it with `npm run oracle:capi`. Nothing reaches a network: the store is controller-runtime's fake
// client and the webhooks are called in-process over HTTP handlers.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
	ctrl "sigs.k8s.io/controller-runtime"

	"sigs.k8s.io/cluster-api/feature"
)

type stringList []string

func (s *stringList) String() string     { return strings.Join(*s, ",") }
func (s *stringList) Set(v string) error { *s = append(*s, v); return nil }

func main() {
	var previous, crds stringList
	flag.Var(&previous, "previous", "a file or directory with the objects as they were before (repeatable)")
	flag.Var(&crds, "crds", "a file or directory of CustomResourceDefinitions (repeatable)")
	capiCRDs := flag.String("capi-crds", "", "CAPI's own CRDs (default: crds/ next to the binary, copied from the module at build time)")
	gates := flag.String("feature-gates", "", "CAPI feature gates, Name=bool,... (ClusterTopology is always on)")
	showVersion := flag.Bool("version", false, "print the CAPI version and the module versions this binary was built from")
	flag.Parse()

	// CAPI's code logs through controller-runtime and klog; the answer is the JSON on stdout only.
	ctrl.SetLogger(logr.Discard())
	klog.SetLogger(logr.Discard())

	if *showVersion {
		writeJSON(buildInfo())
		return
	}
	if *capiCRDs == "" {
		exe, err := os.Executable()
		if err != nil {
			fail(err)
		}
		*capiCRDs = filepath.Join(filepath.Dir(exe), "crds")
	}
	if err := setFeatureGates(*gates); err != nil {
		fail(err)
	}
	paths := flag.Args()
	if len(paths) == 0 {
		paths = []string{"-"}
	}
	in, err := readInputs(paths, previous, crds)
	if err != nil {
		fail(err)
	}
	own, err := readPath(*capiCRDs)
	if err != nil {
		fail(fmt.Errorf("CAPI's CRDs: %w", err))
	}
	answer, err := run(context.Background(), in, own)
	if err != nil {
		fail(err)
	}
	writeJSON(answer)
}

func setFeatureGates(gates string) error {
	all := "ClusterTopology=true"
	if gates != "" {
		all += "," + gates
	}
	return feature.MutableGates.Set(all)
}

// enabledGates lists the state of every CAPI feature gate this run used.
func enabledGates() map[string]bool {
	out := map[string]bool{}
	for name := range feature.MutableGates.GetAll() {
		out[string(name)] = feature.Gates.Enabled(name)
	}
	return out
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "capi-oracle: %v\n", err)
	os.Exit(1)
}

func writeJSON(v interface{}) {
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", " ")
	if err := enc.Encode(v); err != nil {
		fail(err)
	}
}

type oracleInfo struct {
	CAPI         string            `json:"capi"`
	Go           string            `json:"go"`
	Modules      map[string]string `json:"modules"`
	FeatureGates map[string]bool   `json:"featureGates,omitempty"`
}

func buildInfo() oracleInfo {
	info := oracleInfo{Modules: map[string]string{}}
	if bi, ok := debug.ReadBuildInfo(); ok {
		info.Go = bi.GoVersion
		for _, m := range bi.Deps {
			v := m.Version
			if m.Replace != nil {
				v = m.Replace.Version
			}
			info.Modules[m.Path] = v
		}
	}
	info.CAPI = info.Modules["sigs.k8s.io/cluster-api"]
	return info
}
