package main

import (
	"context"
	"fmt"
	"hash/fnv"
	"runtime/debug"

	pkgerrors "github.com/pkg/errors"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	utilrand "k8s.io/apimachinery/pkg/util/rand"
	"k8s.io/klog/v2"

	clusterv1 "sigs.k8s.io/cluster-api/api/core/v1beta2"
	"sigs.k8s.io/cluster-api/controllers/clustercache"
	"sigs.k8s.io/cluster-api/controllers/external"
	"sigs.k8s.io/cluster-api/exp/topology/desiredstate"
	"sigs.k8s.io/cluster-api/exp/topology/scope"
	"sigs.k8s.io/cluster-api/util/conditions"
)

// desiredObject is one object of a Cluster's desired state, with the role it plays, so that a
// comparison can match CAPI's randomly named objects with another renderer's by owner and role.
type desiredObject struct {
	Role         string                 `json:"role"`
	TopologyName string                 `json:"topologyName,omitempty"`
	Object       map[string]interface{} `json:"object"`
	// NameRandom is the byte range [start, end) of metadata.name CAPI drew at random, if any.
	NameRandom []int `json:"nameRandom,omitempty"`
	// APIServer is what the API server says when the topology controller applies the object:
	// fields it would drop, and schema errors against the object's CRD (when one is known).
	APIServer *apiServerVerdict `json:"apiServer,omitempty"`
}

type apiServerVerdict struct {
	UnknownFields []string     `json:"unknownFields,omitempty"`
	Errors        []fieldError `json:"errors,omitempty"`
}

type clusterAnswer struct {
	objectRef
	Error string `json:"error,omitempty"`
	// Updated is set for a Cluster of the previous state that the input updates: its desired
	// state depends on the current state of its objects, which the oracle does not model, so only
	// its admission is answered.
	Updated bool            `json:"updated,omitempty"`
	Objects []desiredObject `json:"objects,omitempty"`
}

// desiredState computes a stored Cluster's desired state the way CAPI's Cluster topology
// reconciler does on its first reconcile (core/reconcilers/topology/cluster/cluster_controller.go,
// Reconciler.reconcile, before reconcileState): the ClusterClass must be reconciled, the
// Cluster's variables are defaulted and validated, the blueprint is read, and
// exp/topology/desiredstate's generator computes the objects with the inline patches applied.
func (h *harness) desiredState(ctx context.Context, cluster *clusterv1.Cluster) (answer clusterAnswer) {
	answer.objectRef = objectRef{APIVersion: clusterv1.GroupVersion.String(), Kind: "Cluster", Namespace: cluster.Namespace, Name: cluster.Name}
	defer func() {
		if r := recover(); r != nil {
			answer.Objects = nil
			answer.Error = fmt.Sprintf("oracle: CAPI code panicked: %v\n%s", r, debug.Stack())
		}
	}()

	clusterClass, err := h.readyClass(ctx, cluster)
	if err != nil {
		answer.Error = err.Error()
		return answer
	}
	// Names: each Cluster's generation is seeded from its namespace and name, so the answer is the
	// same on every run (recorded answers do not churn) and keeps CAPI's random-looking names. A
	// second generation with another seed shows which bytes of each name are random (nameRandom),
	// so a comparison matches objects by role and checks every name outside its random part.
	seed := fnv.New64a()
	_, _ = seed.Write([]byte(cluster.Namespace + "/" + cluster.Name))
	desired, err := h.generate(ctx, cluster, clusterClass, seed.Sum64())
	if err != nil {
		answer.Error = err.Error()
		return answer
	}
	reseeded, err := h.generate(ctx, cluster, clusterClass, ^seed.Sum64())
	if err != nil {
		answer.Error = err.Error()
		return answer
	}
	objects, err := h.desiredObjects(cluster, desired)
	if err != nil {
		answer.Error = err.Error()
		return answer
	}
	others, err := h.desiredObjects(cluster, reseeded)
	if err != nil || len(others) != len(objects) {
		answer.Error = fmt.Sprintf("oracle: a second generation of the desired state gave other objects: %v", err)
		return answer
	}
	for i := range objects {
		objects[i].NameRandom = randomPart(nameOf(objects[i].Object), nameOf(others[i].Object))
		objects[i].APIServer = h.applyCheck(ctx, objects[i].Object)
	}
	answer.Objects = objects
	return answer
}

// readyClass is what Reconciler.reconcile checks before it computes a desired state: the
// ClusterClass is reconciled, and the Cluster's variables default and validate against it.
func (h *harness) readyClass(ctx context.Context, cluster *clusterv1.Cluster) (*clusterv1.ClusterClass, error) {
	clusterClass := &clusterv1.ClusterClass{}
	key := cluster.GetClassKey()
	if err := h.client.Get(ctx, key, clusterClass); err != nil {
		return nil, pkgerrors.Wrapf(err, "failed to retrieve ClusterClass %s", key)
	}
	if !conditions.Has(clusterClass, clusterv1.ClusterClassVariablesReadyCondition) ||
		conditions.IsFalse(clusterClass, clusterv1.ClusterClassVariablesReadyCondition) {
		return nil, fmt.Errorf("ClusterClass is not successfully reconciled: status of %s condition on ClusterClass must be \"True\"", clusterv1.ClusterClassVariablesReadyCondition)
	}
	if clusterClass.GetGeneration() != clusterClass.Status.ObservedGeneration {
		return nil, fmt.Errorf("ClusterClass is not successfully reconciled: ClusterClass.status.observedGeneration must be %d, but is %d", clusterClass.GetGeneration(), clusterClass.Status.ObservedGeneration)
	}
	if errs := h.capi.defaultAndValidateVariables(ctx, cluster, nil, clusterClass); len(errs) > 0 {
		return nil, errs.ToAggregate()
	}
	return clusterClass, nil
}

// generate runs exp/topology/desiredstate's generator on a Cluster the topology controller has
// not reconciled yet (Reconciler.getCurrentState with no references set), with CAPI's name
// randomness (k8s.io/apimachinery/pkg/util/rand) seeded.
func (h *harness) generate(ctx context.Context, cluster *clusterv1.Cluster, clusterClass *clusterv1.ClusterClass, seed uint64) (*scope.ClusterState, error) {
	s := scope.New(cluster.DeepCopy())
	blueprint, err := h.blueprint(ctx, s.Current.Cluster, clusterClass)
	if err != nil {
		return nil, pkgerrors.Wrap(err, "error reading the ClusterClass")
	}
	s.Blueprint = blueprint
	s.Current.ControlPlane = &scope.ControlPlaneState{}
	s.Current.MachineDeployments = scope.MachineDeploymentsStateMap{}
	s.Current.MachinePools = scope.MachinePoolsStateMap{}
	generator, err := desiredstate.NewGenerator(h.client, clustercache.NewFakeEmptyClusterCache(), nil, nil, nil)
	if err != nil {
		return nil, err
	}
	utilrand.Seed(int64(seed))
	desired, err := generator.Generate(ctx, s)
	if err != nil {
		return nil, pkgerrors.Wrap(err, "error computing the desired state of the Cluster topology")
	}
	return desired, nil
}

// settle stands in for the topology controller and the providers having reconciled a Cluster of
// the previous state to a stable state: its desired objects exist, the control plane reports the
// version it was asked for (status.version), and the Cluster refers to them. The Cluster webhook's
// update rules (validateTopologyVersionUpdate) read that state.
func (h *harness) settle(ctx context.Context, cluster *clusterv1.Cluster) error {
	clusterClass, err := h.readyClass(ctx, cluster)
	if err != nil {
		return nil // the topology controller would not have created anything either
	}
	desired, err := h.generate(ctx, cluster, clusterClass, 0)
	if err != nil {
		return nil
	}
	objects, err := h.desiredObjects(cluster, desired)
	if err != nil {
		return err
	}
	for _, o := range objects {
		if o.Role == "Cluster" {
			continue
		}
		u := &unstructured.Unstructured{Object: o.Object}
		if o.Role == "ControlPlane" {
			if v, ok, _ := unstructured.NestedString(u.Object, "spec", "version"); ok {
				_ = unstructured.SetNestedField(u.Object, v, "status", "version")
			}
		}
		obj, err := h.typed(u)
		if err != nil {
			return err
		}
		if err := h.client.Create(ctx, obj); err != nil {
			return pkgerrors.Wrapf(err, "creating %s %s", u.GetKind(), u.GetName())
		}
	}
	stored := cluster.DeepCopy()
	stored.Spec.InfrastructureRef = desired.Cluster.Spec.InfrastructureRef
	stored.Spec.ControlPlaneRef = desired.Cluster.Spec.ControlPlaneRef
	return h.client.Update(ctx, stored)
}

// blueprint is core/reconcilers/topology/cluster/blueprint.go Reconciler.getBlueprint (a method of
// the unexported reconciler state, identical in v1.12 to v1.14): the ClusterClass and every
// template it references, read with controllers/external.Get.
func (h *harness) blueprint(ctx context.Context, cluster *clusterv1.Cluster, clusterClass *clusterv1.ClusterClass) (*scope.ClusterBlueprint, error) {
	get := func(ref *corev1.ObjectReference) (*unstructured.Unstructured, error) {
		obj, err := external.Get(ctx, h.client, ref)
		if err != nil {
			return nil, pkgerrors.Wrapf(err, "failed to retrieve %s %s", ref.Kind, klog.KRef(ref.Namespace, ref.Name))
		}
		return obj, nil
	}
	ns := clusterClass.Namespace
	blueprint := &scope.ClusterBlueprint{
		Topology:           cluster.Spec.Topology,
		ClusterClass:       clusterClass,
		MachineDeployments: map[string]*scope.MachineDeploymentBlueprint{},
		MachinePools:       map[string]*scope.MachinePoolBlueprint{},
	}
	var err error
	if blueprint.InfrastructureClusterTemplate, err = get(clusterClass.Spec.Infrastructure.TemplateRef.ToObjectReference(ns)); err != nil {
		return nil, pkgerrors.Wrapf(err, "failed to get infrastructure cluster template for ClusterClass %s", klog.KObj(clusterClass))
	}
	blueprint.ControlPlane = &scope.ControlPlaneBlueprint{}
	if blueprint.ControlPlane.Template, err = get(clusterClass.Spec.ControlPlane.TemplateRef.ToObjectReference(ns)); err != nil {
		return nil, pkgerrors.Wrapf(err, "failed to get control plane template for ClusterClass %s", klog.KObj(clusterClass))
	}
	if blueprint.HasControlPlaneInfrastructureMachine() {
		if blueprint.ControlPlane.InfrastructureMachineTemplate, err = get(clusterClass.Spec.ControlPlane.MachineInfrastructure.TemplateRef.ToObjectReference(ns)); err != nil {
			return nil, pkgerrors.Wrapf(err, "failed to get control plane's machine template for ClusterClass %s", klog.KObj(clusterClass))
		}
	}
	if blueprint.HasControlPlaneMachineHealthCheck() {
		blueprint.ControlPlane.HealthCheck = clusterClass.Spec.ControlPlane.HealthCheck
	}
	for _, mdClass := range clusterClass.Spec.Workers.MachineDeployments {
		md := &scope.MachineDeploymentBlueprint{}
		mdClass.Metadata.DeepCopyInto(&md.Metadata)
		if md.InfrastructureMachineTemplate, err = get(mdClass.Infrastructure.TemplateRef.ToObjectReference(ns)); err != nil {
			return nil, pkgerrors.Wrapf(err, "failed to get infrastructure machine template for ClusterClass %s, MachineDeployment class %q", klog.KObj(clusterClass), mdClass.Class)
		}
		if md.BootstrapTemplate, err = get(mdClass.Bootstrap.TemplateRef.ToObjectReference(ns)); err != nil {
			return nil, pkgerrors.Wrapf(err, "failed to get bootstrap config template for ClusterClass %s, MachineDeployment class %q", klog.KObj(clusterClass), mdClass.Class)
		}
		md.HealthCheck = mdClass.HealthCheck
		blueprint.MachineDeployments[mdClass.Class] = md
	}
	for _, mpClass := range clusterClass.Spec.Workers.MachinePools {
		mp := &scope.MachinePoolBlueprint{}
		mpClass.Metadata.DeepCopyInto(&mp.Metadata)
		if mp.InfrastructureMachinePoolTemplate, err = get(mpClass.Infrastructure.TemplateRef.ToObjectReference(ns)); err != nil {
			return nil, pkgerrors.Wrapf(err, "failed to get InfrastructureMachinePoolTemplate for ClusterClass %s, MachinePool class %q", klog.KObj(clusterClass), mpClass.Class)
		}
		if mp.BootstrapTemplate, err = get(mpClass.Bootstrap.TemplateRef.ToObjectReference(ns)); err != nil {
			return nil, pkgerrors.Wrapf(err, "failed to get bootstrap config for ClusterClass %s, MachinePool class %q", klog.KObj(clusterClass), mpClass.Class)
		}
		blueprint.MachinePools[mpClass.Class] = mp
	}
	return blueprint, nil
}

// desiredObjects lists the desired state in a fixed order: the Cluster, its infrastructure
// cluster, the control plane with its machine template and health check, then each
// MachineDeployment and MachinePool in topology order with their templates and health checks.
func (h *harness) desiredObjects(cluster *clusterv1.Cluster, desired *scope.ClusterState) ([]desiredObject, error) {
	var out []desiredObject
	var failed error
	add := func(role, topologyName string, obj runtime.Object) {
		if failed != nil || obj == nil {
			return
		}
		u, err := h.toUnstructured(obj)
		if err != nil {
			failed = err
			return
		}
		if u == nil {
			return
		}
		out = append(out, desiredObject{Role: role, TopologyName: topologyName, Object: u})
	}
	add("Cluster", "", desired.Cluster)
	if desired.InfrastructureCluster != nil {
		add("InfrastructureCluster", "", desired.InfrastructureCluster)
	}
	if cp := desired.ControlPlane; cp != nil {
		if cp.Object != nil {
			add("ControlPlane", "", cp.Object)
		}
		if cp.InfrastructureMachineTemplate != nil {
			add("ControlPlaneInfrastructureMachineTemplate", "", cp.InfrastructureMachineTemplate)
		}
		if cp.MachineHealthCheck != nil {
			add("ControlPlaneMachineHealthCheck", "", cp.MachineHealthCheck)
		}
	}
	if cluster.Spec.Topology.IsDefined() {
		for _, t := range cluster.Spec.Topology.Workers.MachineDeployments {
			md := desired.MachineDeployments[t.Name]
			if md == nil {
				continue
			}
			add("MachineDeployment", t.Name, md.Object)
			if md.BootstrapTemplate != nil {
				add("MachineDeploymentBootstrapTemplate", t.Name, md.BootstrapTemplate)
			}
			if md.InfrastructureMachineTemplate != nil {
				add("MachineDeploymentInfrastructureMachineTemplate", t.Name, md.InfrastructureMachineTemplate)
			}
			if md.MachineHealthCheck != nil {
				add("MachineDeploymentMachineHealthCheck", t.Name, md.MachineHealthCheck)
			}
		}
		for _, t := range cluster.Spec.Topology.Workers.MachinePools {
			mp := desired.MachinePools[t.Name]
			if mp == nil {
				continue
			}
			add("MachinePool", t.Name, mp.Object)
			if mp.BootstrapObject != nil {
				add("MachinePoolBootstrapConfig", t.Name, mp.BootstrapObject)
			}
			if mp.InfrastructureMachinePoolObject != nil {
				add("MachinePoolInfrastructureMachinePool", t.Name, mp.InfrastructureMachinePoolObject)
			}
		}
	}
	return out, failed
}

// toUnstructured serialises a typed or unstructured object with its apiVersion and kind.
func (h *harness) toUnstructured(obj runtime.Object) (map[string]interface{}, error) {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		return u.DeepCopy().Object, nil
	}
	gvks, _, err := h.scheme.ObjectKinds(obj)
	if err != nil || len(gvks) == 0 {
		return nil, fmt.Errorf("unknown type %T: %v", obj, err)
	}
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{Object: content}
	u.SetGroupVersionKind(gvks[0])
	return u.Object, nil
}

// applyCheck is what the API server says when the topology controller applies a desired object
// (server-side apply, which defaults and validates it against its CRD); unknown fields are dropped.
func (h *harness) applyCheck(ctx context.Context, obj map[string]interface{}) *apiServerVerdict {
	u := (&unstructured.Unstructured{Object: obj}).DeepCopy()
	if h.api.served(u.GroupVersionKind()) == nil {
		return nil
	}
	verdict := &apiServerVerdict{}
	unknown, err := h.api.decode(u)
	if err != nil {
		verdict.Errors = []fieldError{{Origin: "apiserver", Type: "BadRequest", Message: err.Error()}}
		return verdict
	}
	verdict.UnknownFields = unknown
	verdict.Errors = fieldErrors("apiserver", h.api.validateCreate(ctx, u))
	return verdict
}

func nameOf(obj map[string]interface{}) string {
	return (&unstructured.Unstructured{Object: obj}).GetName()
}

// randomPart is the smallest byte range outside which two generations of a name agree.
func randomPart(a, b string) []int {
	if a == b {
		return nil
	}
	start := 0
	for start < len(a) && start < len(b) && a[start] == b[start] {
		start++
	}
	endA, endB := len(a), len(b)
	for endA > start && endB > start && a[endA-1] == b[endB-1] {
		endA--
		endB--
	}
	return []int{start, endA}
}
