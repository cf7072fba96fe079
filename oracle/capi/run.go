package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"sort"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	clusterv1 "sigs.k8s.io/cluster-api/api/core/v1beta2"
	"sigs.k8s.io/cluster-api/util/conditions"
)

type objectRef struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
}

func refOf(u *unstructured.Unstructured) objectRef {
	return objectRef{APIVersion: u.GetAPIVersion(), Kind: u.GetKind(), Namespace: u.GetNamespace(), Name: u.GetName()}
}

// objectProblem is an input the harness could not use at all (a CRD it cannot serve).
type objectProblem struct {
	ref     objectRef
	message string
}

type problem struct {
	objectRef
	Message string `json:"message"`
}

type classAnswer struct {
	objectRef
	// Reconciled is what the Cluster webhook and topology controller check before using the class:
	// VariablesReady is True and status.observedGeneration is metadata.generation.
	Reconciled bool `json:"reconciled"`
	// ReconcileError is the ClusterClass controller's error, if any.
	ReconcileError string `json:"reconcileError,omitempty"`
	// Variables is status.variables as the ClusterClass controller writes it.
	Variables []clusterv1.ClusterClassStatusVariable `json:"variables"`
	// Conditions are the controller's conditions (VariablesReady, RefVersionsUpToDate, Paused).
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

type answer struct {
	Oracle           oracleInfo        `json:"oracle"`
	AssumedContracts []assumedContract `json:"assumedContracts,omitempty"`
	Problems         []problem         `json:"problems,omitempty"`
	// Ignored are inputs neither CAPI nor a given CRD defines (core kinds, unknown groups).
	Ignored        []objectRef     `json:"ignored,omitempty"`
	Admission      []*admission    `json:"admission"`
	ClusterClasses []classAnswer   `json:"clusterClasses"`
	Clusters       []clusterAnswer `json:"clusters"`
}

// run creates the previous state, then applies the inputs over it (templates, then ClusterClasses,
// each reconciled by the ClusterClass controller, then Clusters), and computes the desired state of
// every Cluster of the inputs that was admitted.
func run(ctx context.Context, in *inputs, capiCRDs []*unstructured.Unstructured) (*answer, error) {
	h, problems, err := newHarness(ctx, in, capiCRDs)
	if err != nil {
		return nil, err
	}
	out := &answer{Oracle: buildInfo(), AssumedContracts: h.assumed, Admission: []*admission{}, ClusterClasses: []classAnswer{}, Clusters: []clusterAnswer{}}
	out.Oracle.FeatureGates = enabledGates()
	for _, p := range problems {
		out.Problems = append(out.Problems, problem{objectRef: p.ref, Message: p.message})
	}

	var currentClusters, currentClasses, previousClusters []client.ObjectKey
	for _, phase := range []struct {
		objects  []*unstructured.Unstructured
		previous bool
	}{{in.previous, true}, {in.current, false}} {
		templates, classes, clusters := h.split(phase.objects, &out.Ignored)
		for _, group := range [][]*unstructured.Unstructured{templates, classes, clusters} {
			for _, obj := range group {
				result, stored := h.apply(ctx, obj)
				result.Previous = phase.previous
				out.Admission = append(out.Admission, result)
				if stored == nil {
					continue
				}
				key := client.ObjectKey{Namespace: stored.GetNamespace(), Name: stored.GetName()}
				switch stored.GetKind() {
				case "ClusterClass":
					if err := h.reconcileClusterClass(ctx, key); err != nil {
						h.reconcileErrors[key] = err.Error()
					} else {
						delete(h.reconcileErrors, key)
					}
					if !phase.previous {
						currentClasses = append(currentClasses, key)
					}
				case "Cluster":
					if phase.previous {
						previousClusters = append(previousClusters, key)
					} else {
						currentClusters = append(currentClusters, key)
					}
				}
			}
		}
		if phase.previous {
			for _, key := range previousClusters {
				cluster := &clusterv1.Cluster{}
				if err := h.client.Get(ctx, key, cluster); err != nil {
					return nil, err
				}
				if !cluster.Spec.Topology.IsDefined() {
					continue
				}
				if err := h.settle(ctx, cluster); err != nil {
					out.Problems = append(out.Problems, problem{objectRef: objectRef{APIVersion: clusterv1.GroupVersion.String(), Kind: "Cluster", Namespace: key.Namespace, Name: key.Name}, Message: "settling the previous state: " + err.Error()})
				}
			}
		}
	}

	for _, key := range currentClasses {
		cc := &clusterv1.ClusterClass{}
		if err := h.client.Get(ctx, key, cc); err != nil {
			return nil, err
		}
		variables := cc.Status.Variables
		if variables == nil {
			variables = []clusterv1.ClusterClassStatusVariable{}
		}
		// Transition times are the wall clock of this run: left out, so answers compare and record.
		for i := range cc.Status.Conditions {
			cc.Status.Conditions[i].LastTransitionTime = metav1.Time{}
		}
		out.ClusterClasses = append(out.ClusterClasses, classAnswer{
			objectRef:      objectRef{APIVersion: clusterv1.GroupVersion.String(), Kind: "ClusterClass", Namespace: key.Namespace, Name: key.Name},
			Reconciled:     classReconciled(cc),
			ReconcileError: h.reconcileErrors[key],
			Variables:      variables,
			Conditions:     cc.Status.Conditions,
		})
	}
	for _, key := range currentClusters {
		cluster := &clusterv1.Cluster{}
		if err := h.client.Get(ctx, key, cluster); err != nil {
			return nil, err
		}
		if !cluster.Spec.Topology.IsDefined() {
			continue
		}
		if slices.Contains(previousClusters, key) {
			out.Clusters = append(out.Clusters, clusterAnswer{objectRef: objectRef{APIVersion: clusterv1.GroupVersion.String(), Kind: "Cluster", Namespace: key.Namespace, Name: key.Name}, Updated: true})
			continue
		}
		out.Clusters = append(out.Clusters, h.desiredState(ctx, cluster))
	}
	return out, nil
}

func classReconciled(cc *clusterv1.ClusterClass) bool {
	return cc.Generation == cc.Status.ObservedGeneration &&
		conditions.Has(cc, clusterv1.ClusterClassVariablesReadyCondition) &&
		!conditions.IsFalse(cc, clusterv1.ClusterClassVariablesReadyCondition)
}

// split orders one phase's objects as they can be created: templates (and any other object of a
// kind with a CRD), then ClusterClasses, then Clusters. Objects of other kinds are ignored.
func (h *harness) split(objs []*unstructured.Unstructured, ignored *[]objectRef) (templates, classes, clusters []*unstructured.Unstructured) {
	for _, o := range objs {
		gvk := o.GroupVersionKind()
		switch {
		case gvk.Group == clusterv1.GroupVersion.Group && gvk.Kind == "ClusterClass":
			classes = append(classes, o)
		case gvk.Group == clusterv1.GroupVersion.Group && gvk.Kind == "Cluster":
			clusters = append(clusters, o)
		case h.scheme.Recognizes(gvk) && gvk.Group != "" && gvk.Group != clusterv1.GroupVersion.Group:
			templates = append(templates, o)
		default:
			*ignored = append(*ignored, refOf(o))
		}
	}
	return templates, classes, clusters
}

// apply creates the object, or updates the stored one of the same identity.
func (h *harness) apply(ctx context.Context, obj *unstructured.Unstructured) (*admission, *unstructured.Unstructured) {
	ref := refOf(obj)
	if ref.Namespace == "" {
		ref.Namespace = metav1.NamespaceDefault
	}
	old, err := h.get(ctx, ref)
	if err != nil {
		return &admission{objectRef: ref, Errors: []fieldError{{Origin: "apiserver", Type: "InternalError", Message: err.Error()}}}, nil
	}
	admitCtx := ctx
	if obj.GetKind() == "Cluster" && obj.GroupVersionKind().Group == clusterv1.GroupVersion.Group && !h.classReady(ctx, obj) {
		// The Cluster webhook polls two seconds for a ClusterClass that is missing or not
		// reconciled; nothing changes while it waits here, so it is asked once.
		cancelled, cancel := context.WithCancel(ctx)
		cancel()
		admitCtx = cancelled
	}
	result, stored := h.admit(admitCtx, obj, old, true)
	if stored == nil {
		return result, nil
	}
	if old == nil && stored.GetUID() == "" {
		// The API server gives every new object a UID (rest.FillObjectMetaSystemFields); this one is
		// derived from the object's identity so that answers repeat.
		stored.SetUID(uidFor(ref))
	}
	if err := h.store(ctx, stored, old); err != nil {
		result.Allowed = false
		result.Stored = nil
		result.Errors = append(result.Errors, fieldError{Origin: "apiserver", Type: "InternalError", Message: err.Error()})
		return result, nil
	}
	return result, stored
}

// classReady says whether the ClusterClass a Cluster refers to is stored and reconciled.
func (h *harness) classReady(ctx context.Context, obj *unstructured.Unstructured) bool {
	name, _, _ := unstructured.NestedString(obj.Object, "spec", "topology", "classRef", "name") // v1beta2
	ns, _, _ := unstructured.NestedString(obj.Object, "spec", "topology", "classRef", "namespace")
	if name == "" {
		name, _, _ = unstructured.NestedString(obj.Object, "spec", "topology", "class") // v1beta1
		ns, _, _ = unstructured.NestedString(obj.Object, "spec", "topology", "classNamespace")
	}
	if ns == "" {
		ns = obj.GetNamespace()
	}
	if ns == "" {
		ns = metav1.NamespaceDefault
	}
	cc := &clusterv1.ClusterClass{}
	if err := h.client.Get(ctx, client.ObjectKey{Namespace: ns, Name: name}, cc); err != nil {
		return false
	}
	return classReconciled(cc)
}

// referencedKinds lists the template kinds the ClusterClasses among objs refer to, with the API
// version they name (v1beta1 refs carry an apiVersion; v1beta2 refs carry one too, in templateRef).
func referencedKinds(objs []*unstructured.Unstructured) []schema.GroupVersionKind {
	seen := map[schema.GroupKind]schema.GroupVersionKind{}
	var walk func(v interface{})
	walk = func(v interface{}) {
		switch t := v.(type) {
		case map[string]interface{}:
			if apiVersion, ok := t["apiVersion"].(string); ok {
				if kind, ok := t["kind"].(string); ok {
					if _, hasName := t["name"]; hasName {
						if gv, err := schema.ParseGroupVersion(apiVersion); err == nil && gv.Group != "" {
							gk := schema.GroupKind{Group: gv.Group, Kind: kind}
							if _, ok := seen[gk]; !ok {
								seen[gk] = gv.WithKind(kind)
							}
						}
					}
				}
			}
			for _, child := range t {
				walk(child)
			}
		case []interface{}:
			for _, child := range t {
				walk(child)
			}
		}
	}
	for _, o := range objs {
		if o.GetKind() == "ClusterClass" {
			spec, _, _ := unstructured.NestedMap(o.Object, "spec")
			walk(spec)
		}
	}
	out := make([]schema.GroupVersionKind, 0, len(seen))
	for _, gvk := range seen {
		out = append(out, gvk)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// uidFor is a UUID-shaped hash of an object's identity.
func uidFor(ref objectRef) types.UID {
	sum := sha256.Sum256([]byte(ref.Kind + "/" + ref.Namespace + "/" + ref.Name))
	h := hex.EncodeToString(sum[:16])
	return types.UID(h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32])
}
