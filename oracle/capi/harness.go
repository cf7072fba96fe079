package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sort"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/go-logr/logr"
	admissionv1 "k8s.io/api/admission/v1"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apimachinery/pkg/version"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/config"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"

	clusterv1beta1 "sigs.k8s.io/cluster-api/api/core/v1beta1"
	clusterv1 "sigs.k8s.io/cluster-api/api/core/v1beta2"
	"sigs.k8s.io/cluster-api/util/contract"
)

// The harness stands in for what surrounds CAPI's code in a management cluster: the API server
// (apiserver.go), an object store (controller-runtime's fake client), the webhook server (CAPI's
// webhooks registered on a controller-runtime manager that is never started, called over HTTP
// with AdmissionReview and ConversionReview bodies, as kube-apiserver calls them) and the
// ClusterClass controller, run until its status settles.

const hubVersion = "v1beta2"

// capi is what the version-specific file (compat_*.go) wires up from CAPI's public packages.
type capi struct {
	reconcileClusterClass       func(ctx context.Context, req ctrl.Request) (ctrl.Result, error)
	defaultAndValidateVariables func(ctx context.Context, cluster, oldCluster *clusterv1.Cluster, clusterClass *clusterv1.ClusterClass) field.ErrorList
}

type harness struct {
	scheme *runtime.Scheme
	client client.Client
	mux    *http.ServeMux
	api    *apiServer
	capi   capi
	// reconcileErrors are the ClusterClass controller's last errors, by class.
	reconcileErrors map[client.ObjectKey]string
	// assumed lists the CRDs the harness made up, with just a contract label, for referenced kinds
	// no CRD was given for (the topology controller reads contracts from CRD labels).
	assumed []assumedContract
}

type assumedContract struct {
	Group    string `json:"group"`
	Kind     string `json:"kind"`
	Contract string `json:"contract"`
}

func newHarness(ctx context.Context, in *inputs, capiCRDs []*unstructured.Unstructured) (*harness, []objectProblem, error) {
	h := &harness{scheme: runtime.NewScheme(), api: newAPIServer(), reconcileErrors: map[client.ObjectKey]string{}}
	for _, add := range []func(*runtime.Scheme) error{apiextensionsv1.AddToScheme, clusterv1.AddToScheme, clusterv1beta1.AddToScheme, addRuntimeToScheme} {
		if err := add(h.scheme); err != nil {
			return nil, nil, err
		}
	}

	// CAPI's own CRDs for its own kinds: those of the version under test, never one from the inputs.
	var problems []objectProblem
	crds := map[string]*apiextensionsv1.CustomResourceDefinition{}
	for _, u := range capiCRDs {
		crd, err := toCRD(u)
		if err != nil {
			return nil, nil, err
		}
		crds[crd.Name] = crd
	}
	for _, u := range in.crds {
		crd, err := toCRD(u)
		if err != nil {
			problems = append(problems, objectProblem{ref: refOf(u), message: err.Error()})
			continue
		}
		if crd.Spec.Group == clusterv1.GroupVersion.Group {
			continue
		}
		crds[crd.Name] = crd
	}

	// Every kind an input ClusterClass references, and the kind each template creates, needs a CRD
	// carrying its contract label.
	var kinds []schema.GroupVersionKind
	for _, ref := range referencedKinds(append(append([]*unstructured.Unstructured{}, in.previous...), in.current...)) {
		kinds = append(kinds, ref)
		if created := strings.TrimSuffix(ref.Kind, "Template"); created != ref.Kind {
			kinds = append(kinds, ref.GroupVersion().WithKind(created))
		}
	}
	for _, ref := range kinds {
		name := contract.CalculateCRDName(ref.Group, ref.Kind)
		if crds[name] != nil {
			continue
		}
		c := assumedContractVersion(ref.Version)
		if !h.scheme.Recognizes(ref) {
			h.scheme.AddKnownTypeWithName(ref, &unstructured.Unstructured{})
			h.scheme.AddKnownTypeWithName(ref.GroupVersion().WithKind(ref.Kind+"List"), &unstructured.UnstructuredList{})
		}
		h.assumed = append(h.assumed, assumedContract{Group: ref.Group, Kind: ref.Kind, Contract: c})
		crds[name] = &apiextensionsv1.CustomResourceDefinition{
			TypeMeta:   metav1.TypeMeta{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition"},
			ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{clusterv1.GroupVersion.Group + "/" + c: ref.Version}},
			Spec: apiextensionsv1.CustomResourceDefinitionSpec{
				Group: ref.Group, Scope: apiextensionsv1.NamespaceScoped,
				Names: apiextensionsv1.CustomResourceDefinitionNames{Kind: ref.Kind},
			},
		}
	}

	names := make([]string, 0, len(crds))
	for name := range crds {
		names = append(names, name)
	}
	sort.Strings(names)
	var crdObjects []client.Object
	for _, name := range names {
		crd := crds[name]
		crdObjects = append(crdObjects, crd)
		if len(crd.Spec.Versions) == 0 {
			continue // an assumed CRD: metadata only, no schema to serve
		}
		if err := h.api.install(crd); err != nil {
			problems = append(problems, objectProblem{ref: objectRef{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition", Name: name}, message: err.Error()})
		}
		for _, v := range crd.Spec.Versions {
			gvk := schema.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: crd.Spec.Names.Kind}
			// CAPI's own kinds are Go types (old versions such as v1alpha4 stay unknown, as they
			// are not served); other served kinds are stored unstructured.
			if v.Served && crd.Spec.Group != clusterv1.GroupVersion.Group && !h.scheme.Recognizes(gvk) {
				h.scheme.AddKnownTypeWithName(gvk, &unstructured.Unstructured{})
				h.scheme.AddKnownTypeWithName(gvk.GroupVersion().WithKind(gvk.Kind+"List"), &unstructured.UnstructuredList{})
			}
		}
	}

	// Objects of kinds no CRD serves (templates given without their CRD) are stored as they are.
	for _, o := range append(append([]*unstructured.Unstructured{}, in.previous...), in.current...) {
		gvk := o.GroupVersionKind()
		if gvk.Group != "" && gvk.Group != clusterv1.GroupVersion.Group && crds[contract.CalculateCRDName(gvk.Group, gvk.Kind)] != nil && !h.scheme.Recognizes(gvk) {
			h.scheme.AddKnownTypeWithName(gvk, &unstructured.Unstructured{})
			h.scheme.AddKnownTypeWithName(gvk.GroupVersion().WithKind(gvk.Kind+"List"), &unstructured.UnstructuredList{})
		}
	}

	indexField, indexFunc := clusterClassRefIndex()
	h.client = fake.NewClientBuilder().
		WithScheme(h.scheme).
		WithObjects(crdObjects...).
		WithStatusSubresource(&clusterv1.ClusterClass{}, &clusterv1.Cluster{}).
		WithIndex(&clusterv1.Cluster{}, indexField, indexFunc).
		Build()

	// A manager that is never started: it only hosts the webhook server's mux (and, before v1.14,
	// the controllers whose Reconcile the public aliases expose after SetupWithManager).
	mgr, err := ctrl.NewManager(&rest.Config{Host: "https://127.0.0.1:1"}, ctrl.Options{
		Scheme:                 h.scheme,
		Logger:                 logr.Discard(),
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		Controller:             config.Controller{SkipNameValidation: ptr.To(true)},
		NewClient: func(*rest.Config, client.Options) (client.Client, error) {
			return h.client, nil
		},
	})
	if err != nil {
		return nil, nil, fmt.Errorf("manager: %w", err)
	}
	h.capi, err = setupCAPI(ctx, mgr, h.client, h.apiVersionForContract)
	if err != nil {
		return nil, nil, err
	}
	h.mux = mgr.GetWebhookServer().WebhookMux()
	return h, problems, nil
}

// assumedContractVersion is the contract a CRD-less kind is taken to follow: that of its API
// version when it is a CAPI contract version, else v1beta1.
func assumedContractVersion(apiVersion string) string {
	if apiVersion == "v1beta2" {
		return "v1beta2"
	}
	return "v1beta1"
}

func toCRD(u *unstructured.Unstructured) (*apiextensionsv1.CustomResourceDefinition, error) {
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, crd); err != nil {
		return nil, fmt.Errorf("CRD %s: %w", u.GetName(), err)
	}
	return crd, nil
}

// apiVersionForContract is the latest API version a kind's CRD declares for the newest contract it
// follows; CAPI's manager answers the same from internal/contract.GetAPIVersion when converting
// references back to v1beta1.
func (h *harness) apiVersionForContract(gk schema.GroupKind) (string, error) {
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := h.client.Get(context.Background(), client.ObjectKey{Name: contract.CalculateCRDName(gk.Group, gk.Kind)}, crd); err != nil {
		return "", err
	}
	for _, c := range []string{"v1beta2", "v1beta1"} {
		value, ok := crd.Labels[clusterv1.GroupVersion.Group+"/"+c]
		if !ok {
			continue
		}
		versions := strings.Split(value, "_")
		sort.Slice(versions, func(i, j int) bool { return version.CompareKubeAwareVersionStrings(versions[i], versions[j]) > 0 })
		return schema.GroupVersion{Group: gk.Group, Version: versions[0]}.String(), nil
	}
	return "", fmt.Errorf("CRD %s has no contract label", crd.Name)
}

// workloadClusters answers the Cluster webhook's reads of a workload cluster: every workload
// cluster is reachable and holds no Nodes (the state a settled previous Cluster is taken to be in).
type workloadClusters struct{}

func (workloadClusters) GetReader(context.Context, client.ObjectKey) (client.Reader, error) {
	return fake.NewClientBuilder().Build(), nil
}

// --- admission ------------------------------------------------------------------------------

// fieldError is one cause of a refusal, as CAPI's and the API server's error lists give it.
type fieldError struct {
	Origin  string `json:"origin"` // apiserver | webhook | conversion
	Type    string `json:"type"`   // a metav1.CauseType such as FieldValueInvalid
	Field   string `json:"field"`
	Message string `json:"message"`
}

type admission struct {
	objectRef
	Operation string       `json:"operation"`
	Previous  bool         `json:"previous,omitempty"`
	Allowed   bool         `json:"allowed"`
	Errors    []fieldError `json:"errors,omitempty"`
	Warnings  []string     `json:"warnings,omitempty"`
	// UnknownFields are the fields the API server prunes; with kubectl's default (Strict field
	// validation) they refuse the request, and they are listed in Errors as well.
	UnknownFields []string `json:"unknownFields,omitempty"`
	// Stored is the object as the API server stores it (storage version), when allowed.
	Stored map[string]interface{} `json:"stored,omitempty"`
}

func fieldErrors(origin string, errs field.ErrorList) []fieldError {
	out := make([]fieldError, 0, len(errs))
	for _, e := range errs {
		out = append(out, fieldError{Origin: origin, Type: string(e.Type), Field: fieldPath(e.Field), Message: e.ErrorBody()})
	}
	return out
}

// fieldPath is a field.Path as text; an error about the whole object has none (field.Path
// prints a nil path as "<nil>").
func fieldPath(p string) string {
	if p == "<nil>" {
		return ""
	}
	return p
}

func statusErrors(origin string, st *metav1.Status) []fieldError {
	if st == nil {
		return []fieldError{{Origin: origin, Type: "Unknown", Message: "refused without a status"}}
	}
	if st.Details != nil && len(st.Details.Causes) > 0 {
		out := make([]fieldError, 0, len(st.Details.Causes))
		for _, c := range st.Details.Causes {
			out = append(out, fieldError{Origin: origin, Type: string(c.Type), Field: fieldPath(c.Field), Message: c.Message})
		}
		return out
	}
	reason := string(st.Reason)
	if reason == "" {
		reason = fmt.Sprintf("HTTP%d", st.Code)
	}
	return []fieldError{{Origin: origin, Type: reason, Message: st.Message}}
}

// admit runs one create (old == nil) or update of a CAPI object or template the way kube-apiserver
// runs it: decode in the request version (prune, default), mutating webhooks on the hub version,
// schema validation in the request version, validating webhooks on the hub version, and storage in
// the hub version. old is the stored object.
func (h *harness) admit(ctx context.Context, obj, old *unstructured.Unstructured, namespaced bool) (*admission, *unstructured.Unstructured) {
	u := obj.DeepCopy()
	if namespaced && u.GetNamespace() == "" {
		u.SetNamespace(metav1.NamespaceDefault)
	}
	result := &admission{objectRef: refOf(u), Operation: string(admissionv1.Create)}
	if old != nil {
		result.Operation = string(admissionv1.Update)
	}
	reject := func(errs ...fieldError) (*admission, *unstructured.Unstructured) {
		result.Errors = append(result.Errors, errs...)
		return result, nil
	}

	unknown, err := h.api.decode(u)
	if err != nil {
		return reject(fieldError{Origin: "apiserver", Type: "BadRequest", Message: err.Error()})
	}
	result.UnknownFields = unknown
	if len(unknown) > 0 {
		var errs []fieldError
		for _, f := range unknown {
			errs = append(errs, fieldError{Origin: "apiserver", Type: "FieldValueUnknown", Field: f, Message: fmt.Sprintf("strict decoding error: unknown field %q", f)})
		}
		return reject(errs...)
	}

	isCAPI := u.GroupVersionKind().Group == clusterv1.GroupVersion.Group
	requestVersion := u.GroupVersionKind().Version

	// kubectl apply (client-side or server-side) leaves alone the fields another manager set: the
	// topology controller's references on a Cluster stay when the applied Cluster has none.
	if old != nil && isCAPI && u.GetKind() == "Cluster" {
		oldInRequestVersion, errs := h.convert(old, requestVersion)
		if errs != nil {
			return reject(errs...)
		}
		for _, f := range []string{"infrastructureRef", "controlPlaneRef"} {
			if _, ok, _ := unstructured.NestedFieldNoCopy(u.Object, "spec", f); ok {
				continue
			}
			if v, ok, _ := unstructured.NestedFieldCopy(oldInRequestVersion.Object, "spec", f); ok {
				_ = unstructured.SetNestedField(u.Object, v, "spec", f)
			}
		}
	}

	// Mutating admission (the Cluster webhook's Default).
	if path := webhookPath("mutate", u.GetKind()); isCAPI && h.registered(path) {
		hub, errs := h.convert(u, hubVersion)
		if errs != nil {
			return reject(errs...)
		}
		resp, err := h.review(ctx, path, result.Operation, hub, old)
		if err != nil {
			return reject(fieldError{Origin: "webhook", Type: "InternalError", Message: err.Error()})
		}
		result.Warnings = append(result.Warnings, resp.Warnings...)
		if !resp.Allowed {
			return reject(statusErrors("webhook", resp.Result)...)
		}
		if len(resp.Patch) > 0 {
			if hub, err = applyPatch(hub, resp.Patch); err != nil {
				return reject(fieldError{Origin: "webhook", Type: "InternalError", Message: err.Error()})
			}
			h.api.coerce(hub)
		}
		if u, errs = h.convert(hub, requestVersion); errs != nil {
			return reject(errs...)
		}
	}

	// The registry's validation, in the request version.
	var errs field.ErrorList
	if old == nil {
		errs = h.api.validateCreate(ctx, u)
	} else {
		oldInRequestVersion, convErrs := h.convert(old, requestVersion)
		if convErrs != nil {
			return reject(convErrs...)
		}
		errs = h.api.validateUpdate(ctx, u, oldInRequestVersion)
	}
	if len(errs) > 0 {
		return reject(fieldErrors("apiserver", errs)...)
	}

	stored := u
	if isCAPI {
		var convErrs []fieldError
		if stored, convErrs = h.convert(u, hubVersion); convErrs != nil {
			return reject(convErrs...)
		}
		if path := webhookPath("validate", u.GetKind()); h.registered(path) {
			resp, err := h.review(ctx, path, result.Operation, stored, old)
			if err != nil {
				return reject(fieldError{Origin: "webhook", Type: "InternalError", Message: err.Error()})
			}
			result.Warnings = append(result.Warnings, resp.Warnings...)
			if !resp.Allowed {
				return reject(statusErrors("webhook", resp.Result)...)
			}
		}
	}
	result.Allowed = true
	result.Stored = stored.Object
	return result, stored
}

// webhookPath is the path controller-runtime's builder registers a hub-version webhook at.
func webhookPath(kind, objectKind string) string {
	return "/" + kind + "-cluster-x-k8s-io-" + hubVersion + "-" + strings.ToLower(objectKind)
}

func (h *harness) registered(path string) bool {
	_, pattern := h.mux.Handler(&http.Request{Method: http.MethodPost, URL: &url.URL{Path: path}})
	return pattern == path
}

func (h *harness) post(ctx context.Context, path string, body interface{}, out interface{}) error {
	raw, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req := httptest.NewRequestWithContext(ctx, http.MethodPost, path, bytes.NewReader(raw))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	h.mux.ServeHTTP(rec, req)
	if rec.Code != http.StatusOK {
		return fmt.Errorf("%s answered HTTP %d: %s", path, rec.Code, rec.Body.String())
	}
	return json.Unmarshal(rec.Body.Bytes(), out)
}

// review sends an AdmissionReview, as kube-apiserver does for a webhook with matchPolicy Equivalent.
func (h *harness) review(ctx context.Context, path, operation string, obj, old *unstructured.Unstructured) (*admissionv1.AdmissionResponse, error) {
	raw, err := json.Marshal(obj.Object)
	if err != nil {
		return nil, err
	}
	gvk := obj.GroupVersionKind()
	req := &admissionv1.AdmissionRequest{
		UID:       types.UID("oracle-" + strings.ToLower(obj.GetKind()) + "-" + obj.GetName()),
		Kind:      metav1.GroupVersionKind{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind},
		Resource:  metav1.GroupVersionResource{Group: gvk.Group, Version: gvk.Version, Resource: strings.ToLower(gvk.Kind) + "s"},
		Name:      obj.GetName(),
		Namespace: obj.GetNamespace(),
		Operation: admissionv1.Operation(operation),
		Object:    runtime.RawExtension{Raw: raw},
	}
	if old != nil {
		if req.OldObject.Raw, err = json.Marshal(old.Object); err != nil {
			return nil, err
		}
	}
	review := admissionv1.AdmissionReview{TypeMeta: metav1.TypeMeta{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"}, Request: req}
	var answer admissionv1.AdmissionReview
	if err := h.post(ctx, path, review, &answer); err != nil {
		return nil, err
	}
	if answer.Response == nil {
		return nil, fmt.Errorf("%s answered without a response", path)
	}
	return answer.Response, nil
}

// convert sends a ConversionReview to CAPI's conversion webhook, then prunes and defaults the
// result in its version, as the API server's schemaCoercingConverter does.
func (h *harness) convert(u *unstructured.Unstructured, toVersion string) (*unstructured.Unstructured, []fieldError) {
	if u.GroupVersionKind().Version == toVersion {
		return u.DeepCopy(), nil
	}
	raw, err := json.Marshal(u.Object)
	if err != nil {
		return nil, []fieldError{{Origin: "conversion", Type: "InternalError", Message: err.Error()}}
	}
	desired := schema.GroupVersion{Group: u.GroupVersionKind().Group, Version: toVersion}.String()
	review := apiextensionsv1.ConversionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: "apiextensions.k8s.io/v1", Kind: "ConversionReview"},
		Request:  &apiextensionsv1.ConversionRequest{UID: "oracle", DesiredAPIVersion: desired, Objects: []runtime.RawExtension{{Raw: raw}}},
	}
	var answer apiextensionsv1.ConversionReview
	if err := h.post(context.Background(), "/convert", review, &answer); err != nil {
		return nil, []fieldError{{Origin: "conversion", Type: "InternalError", Message: err.Error()}}
	}
	if answer.Response == nil || answer.Response.Result.Status != metav1.StatusSuccess || len(answer.Response.ConvertedObjects) != 1 {
		msg := "no answer"
		if answer.Response != nil {
			msg = answer.Response.Result.Message
		}
		return nil, []fieldError{{Origin: "conversion", Type: "InternalError", Message: msg}}
	}
	out := &unstructured.Unstructured{}
	if err := out.UnmarshalJSON(answer.Response.ConvertedObjects[0].Raw); err != nil {
		return nil, []fieldError{{Origin: "conversion", Type: "InternalError", Message: err.Error()}}
	}
	h.api.coerce(out)
	return out, nil
}

func applyPatch(u *unstructured.Unstructured, patch []byte) (*unstructured.Unstructured, error) {
	raw, err := json.Marshal(u.Object)
	if err != nil {
		return nil, err
	}
	p, err := jsonpatch.DecodePatch(patch)
	if err != nil {
		return nil, err
	}
	patched, err := p.Apply(raw)
	if err != nil {
		return nil, err
	}
	out := &unstructured.Unstructured{}
	return out, out.UnmarshalJSON(patched)
}

// --- the store --------------------------------------------------------------------------------

// store creates or updates the admitted object in the fake client.
func (h *harness) store(ctx context.Context, stored, old *unstructured.Unstructured) error {
	obj, err := h.typed(stored)
	if err != nil {
		return err
	}
	if old == nil {
		obj.SetResourceVersion("")
		return h.client.Create(ctx, obj)
	}
	obj.SetResourceVersion(old.GetResourceVersion())
	if err := h.client.Update(ctx, obj); err != nil {
		return err
	}
	// The status subresource is kept by Update; a ClusterClass's observedGeneration then lags, as live.
	return nil
}

// typed turns an unstructured CAPI object into its Go type (others stay unstructured).
func (h *harness) typed(u *unstructured.Unstructured) (client.Object, error) {
	if u.GroupVersionKind().Group != clusterv1.GroupVersion.Group {
		return u.DeepCopy(), nil
	}
	obj, err := h.scheme.New(u.GroupVersionKind())
	if err != nil {
		return nil, err
	}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, obj); err != nil {
		return nil, err
	}
	return obj.(client.Object), nil
}

func (h *harness) get(ctx context.Context, ref objectRef) (*unstructured.Unstructured, error) {
	u := &unstructured.Unstructured{}
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil {
		return nil, err
	}
	if gv.Group == clusterv1.GroupVersion.Group {
		gv.Version = hubVersion
	}
	u.SetGroupVersionKind(gv.WithKind(ref.Kind))
	if err := h.client.Get(ctx, client.ObjectKey{Namespace: ref.Namespace, Name: ref.Name}, u); err != nil {
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		return nil, err
	}
	return u, nil
}

// reconcileClusterClass runs CAPI's ClusterClass controller until the object stops changing, as
// the watch on its own status would trigger it again (the first pass only sets the Paused condition).
func (h *harness) reconcileClusterClass(ctx context.Context, key client.ObjectKey) error {
	var lastErr error
	previous := ""
	for i := 0; i < 5; i++ {
		_, lastErr = h.capi.reconcileClusterClass(ctx, ctrl.Request{NamespacedName: key})
		cc := &clusterv1.ClusterClass{}
		if err := h.client.Get(ctx, key, cc); err != nil {
			return err
		}
		if cc.ResourceVersion == previous {
			break
		}
		previous = cc.ResourceVersion
	}
	return lastErr
}
