// Test oracle (never shipped): the request bodies of the Runtime SDK client decoded into copies of
// CAPI's Go types (api/runtime/hooks/v1alpha1: common_types.go, discovery_types.go,
// topologymutation_types.go, topologymutation_variable_types.go) with unknown fields refused, then
// marshalled again by encoding/json. A body whose JSON names, omitempty fields and field order are
// CAPI's comes back byte for byte. apiextensionsv1.JSON and runtime.RawExtension marshal their
// raw bytes, so they are json.RawMessage here; `builtin` values are checked against Builtins.
//
// Input: one JSON object per line, {"kind": "<Kind>", "body": "<the body as sent>"}.
// Output: one line per input, {"out": "<re-marshalled>"} or {"err": "<decode error>"}.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
)

// metav1.TypeMeta: kind first.
type TypeMeta struct {
	Kind       string `json:"kind,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
}
type CommonRequest struct {
	Settings map[string]string `json:"settings,omitempty"`
}
type Variable struct {
	Name  string          `json:"name"`
	Value json.RawMessage `json:"value"`
}
type HolderReference struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace"`
	Name       string `json:"name"`
	FieldPath  string `json:"fieldPath"`
}
type GeneratePatchesRequestItem struct {
	UID             string          `json:"uid"`
	HolderReference HolderReference `json:"holderReference"`
	Object          json.RawMessage `json:"object"`
	Variables       []Variable      `json:"variables,omitempty"`
}
type GeneratePatchesRequest struct {
	TypeMeta      `json:",inline"`
	CommonRequest `json:",inline"`
	Variables     []Variable                   `json:"variables,omitempty"`
	Items         []GeneratePatchesRequestItem `json:"items"`
}
type ValidateTopologyRequestItem struct {
	HolderReference HolderReference `json:"holderReference"`
	Object          json.RawMessage `json:"object"`
	Variables       []Variable      `json:"variables,omitempty"`
}
type ValidateTopologyRequest struct {
	TypeMeta      `json:",inline"`
	CommonRequest `json:",inline"`
	Variables     []Variable                     `json:"variables,omitempty"`
	Items         []*ValidateTopologyRequestItem `json:"items"`
}
type DiscoverVariablesRequest struct {
	TypeMeta      `json:",inline"`
	CommonRequest `json:",inline"`
}
type DiscoveryRequest struct {
	TypeMeta `json:",inline"`
}

type ObjectMeta struct {
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}
type ClusterTopologyClusterClassRefBuiltins struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
}
type ClusterTopologyBuiltins struct {
	Version        string                                 `json:"version,omitempty"`
	ClassRef       ClusterTopologyClusterClassRefBuiltins `json:"classRef"`
	Class          string                                 `json:"class,omitempty"`
	ClassNamespace string                                 `json:"classNamespace,omitempty"`
}
type ClusterNetworkBuiltins struct {
	ServiceDomain *string  `json:"serviceDomain,omitempty"`
	Services      []string `json:"services,omitempty"`
	Pods          []string `json:"pods,omitempty"`
}
type ClusterBuiltins struct {
	Name      string                   `json:"name,omitempty"`
	Namespace string                   `json:"namespace,omitempty"`
	UID       string                   `json:"uid,omitempty"`
	Metadata  *ObjectMeta              `json:"metadata,omitempty"`
	Topology  *ClusterTopologyBuiltins `json:"topology,omitempty"`
	Network   *ClusterNetworkBuiltins  `json:"network,omitempty"`
}
type NameRef struct {
	Name string `json:"name,omitempty"`
}
type ControlPlaneMachineTemplateBuiltins struct {
	InfrastructureRef NameRef `json:"infrastructureRef,omitempty"`
}
type ControlPlaneBuiltins struct {
	Version         string                               `json:"version,omitempty"`
	Metadata        *ObjectMeta                          `json:"metadata,omitempty"`
	Name            string                               `json:"name,omitempty"`
	Replicas        *int32                               `json:"replicas,omitempty"`
	MachineTemplate *ControlPlaneMachineTemplateBuiltins `json:"machineTemplate,omitempty"`
}
type MachineBootstrapBuiltins struct {
	ConfigRef *NameRef `json:"configRef,omitempty"`
}
type WorkerBuiltins struct {
	Version           string                    `json:"version,omitempty"`
	Metadata          *ObjectMeta               `json:"metadata,omitempty"`
	Class             string                    `json:"class,omitempty"`
	Name              string                    `json:"name,omitempty"`
	TopologyName      string                    `json:"topologyName,omitempty"`
	Replicas          *int64                    `json:"replicas,omitempty"`
	Bootstrap         *MachineBootstrapBuiltins `json:"bootstrap,omitempty"`
	InfrastructureRef *NameRef                  `json:"infrastructureRef,omitempty"`
}
type Builtins struct {
	Cluster           *ClusterBuiltins      `json:"cluster,omitempty"`
	ControlPlane      *ControlPlaneBuiltins `json:"controlPlane,omitempty"`
	MachineDeployment *WorkerBuiltins       `json:"machineDeployment,omitempty"`
	MachinePool       *WorkerBuiltins       `json:"machinePool,omitempty"`
}

func roundTrip(body []byte, into interface{}) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(into); err != nil {
		return nil, err
	}
	return json.Marshal(into)
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<20), 64<<20)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var line struct{ Kind, Body string }
		if err := json.Unmarshal(in.Bytes(), &line); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		var v interface{}
		switch line.Kind {
		case "GeneratePatchesRequest":
			v = &GeneratePatchesRequest{}
		case "ValidateTopologyRequest":
			v = &ValidateTopologyRequest{}
		case "DiscoverVariablesRequest":
			v = &DiscoverVariablesRequest{}
		case "DiscoveryRequest":
			v = &DiscoveryRequest{}
		case "Builtins":
			v = &Builtins{}
		default:
			_ = out.Encode(map[string]string{"err": "unknown kind " + line.Kind})
			continue
		}
		b, err := roundTrip([]byte(line.Body), v)
		if err != nil {
			_ = out.Encode(map[string]string{"err": err.Error()})
			continue
		}
		_ = out.Encode(map[string]string{"out": string(b)})
	}
}
