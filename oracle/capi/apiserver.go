package main

import (
	"context"
	"fmt"
	"sort"

	apiextensionsinternal "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured/unstructuredscheme"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The API server's side of a request for a custom resource, built from apiextensions-apiserver's
// own packages: what k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go does
// when it decodes a request (schemaCoercingDecoder.Decode, unstructuredSchemaCoercer.apply,
// unstructuredDefaulter.Default) and what the registry does before it stores the object
// (pkg/registry/customresource/strategy.go: PrepareForCreate/PrepareForUpdate, Validate/ValidateUpdate:
// OpenAPI schema, embedded ObjectMeta, list types, x-kubernetes-validations).

// crdStrategy is the part of apiextensions' customResourceStrategy the oracle calls.
type crdStrategy interface {
	PrepareForCreate(ctx context.Context, obj runtime.Object)
	PrepareForUpdate(ctx context.Context, obj, old runtime.Object)
	Validate(ctx context.Context, obj runtime.Object) field.ErrorList
	ValidateUpdate(ctx context.Context, obj, old runtime.Object) field.ErrorList
}

type servedVersion struct {
	structural *structuralschema.Structural
	strategy   crdStrategy
}

type crdInfo struct {
	crd      *apiextensionsv1.CustomResourceDefinition
	versions map[string]*servedVersion
}

// apiServer knows the CRDs the harness installed, by group and kind.
type apiServer struct {
	crds map[schema.GroupKind]*crdInfo
}

func newAPIServer() *apiServer {
	return &apiServer{crds: map[schema.GroupKind]*crdInfo{}}
}

// install makes a CRD served, as the apiextensions controller does once it is Established.
func (a *apiServer) install(crd *apiextensionsv1.CustomResourceDefinition) error {
	internal := &apiextensionsinternal.CustomResourceDefinition{}
	if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(crd, internal, nil); err != nil {
		return fmt.Errorf("CRD %s: %w", crd.Name, err)
	}
	info := &crdInfo{crd: crd, versions: map[string]*servedVersion{}}
	gk := schema.GroupKind{Group: crd.Spec.Group, Kind: crd.Spec.Names.Kind}
	for _, v := range internal.Spec.Versions {
		if !v.Served {
			continue
		}
		// Versions with identical schemas share spec.validation in the internal form.
		validation, err := apiextensionsinternal.GetSchemaForVersion(internal, v.Name)
		if err != nil {
			return fmt.Errorf("CRD %s version %s: %w", crd.Name, v.Name, err)
		}
		if validation == nil || validation.OpenAPIV3Schema == nil {
			return fmt.Errorf("CRD %s version %s has no schema", crd.Name, v.Name)
		}
		structural, err := structuralschema.NewStructural(validation.OpenAPIV3Schema)
		if err != nil {
			return fmt.Errorf("CRD %s version %s: %w", crd.Name, v.Name, err)
		}
		validator, _, err := apiservervalidation.NewSchemaValidator(validation.OpenAPIV3Schema)
		if err != nil {
			return fmt.Errorf("CRD %s version %s: %w", crd.Name, v.Name, err)
		}
		var status *apiextensionsinternal.CustomResourceSubresourceStatus
		var scale *apiextensionsinternal.CustomResourceSubresourceScale
		subresources, err := apiextensionsinternal.GetSubresourcesForVersion(internal, v.Name)
		if err != nil {
			return fmt.Errorf("CRD %s version %s: %w", crd.Name, v.Name, err)
		}
		if subresources != nil {
			status, scale = subresources.Status, subresources.Scale
		}
		var statusValidator apiservervalidation.SchemaValidator
		if status != nil {
			statusValidator = validator
		}
		info.versions[v.Name] = &servedVersion{
			structural: structural,
			strategy: newStrategy(unstructuredscheme.NewUnstructuredObjectTyper(), internal.Spec.Scope == apiextensionsinternal.NamespaceScoped,
				gk.WithVersion(v.Name), validator, statusValidator, structural, status, scale),
		}
	}
	a.crds[gk] = info
	return nil
}

func (a *apiServer) served(gvk schema.GroupVersionKind) *servedVersion {
	info := a.crds[gvk.GroupKind()]
	if info == nil {
		return nil
	}
	return info.versions[gvk.Version]
}

// decode is the request decoding of a custom resource: unknown fields are pruned (and returned, as
// a Strict field-validation request fails on them), nulls the schema does not allow are dropped,
// embedded ObjectMeta is coerced, then structural defaults are applied.
func (a *apiServer) decode(u *unstructured.Unstructured) (unknownFields []string, err error) {
	v := a.served(u.GroupVersionKind())
	if v == nil {
		return nil, nil
	}
	_, _, metaUnknown, err := schemaobjectmeta.GetObjectMetaWithOptions(u.Object, schemaobjectmeta.ObjectMetaOptions{ReturnUnknownFieldPaths: true})
	if err != nil {
		return nil, err
	}
	unknownFields = append(unknownFields, metaUnknown...)
	unknownFields = append(unknownFields, structuralpruning.PruneWithOptions(u.Object, v.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})...)
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, v.structural)
	coerceErr, paths := schemaobjectmeta.CoerceWithOptions(nil, u.Object, v.structural, false, schemaobjectmeta.CoerceOptions{ReturnUnknownFieldPaths: true})
	if coerceErr != nil {
		return nil, coerceErr
	}
	unknownFields = append(unknownFields, paths...)
	structuraldefaulting.Default(u.Object, v.structural)
	sort.Strings(unknownFields)
	return unknownFields, nil
}

// coerce is what the API server does to an object converted or patched by a webhook
// (schemaCoercingConverter, then the defaulter run after a mutating webhook): prune and default.
func (a *apiServer) coerce(u *unstructured.Unstructured) {
	v := a.served(u.GroupVersionKind())
	if v == nil {
		return
	}
	structuralpruning.PruneWithOptions(u.Object, v.structural, true, structuralschema.UnknownFieldPathOptions{})
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u.Object, v.structural)
	structuraldefaulting.Default(u.Object, v.structural)
}

// validateCreate runs PrepareForCreate and Validate of the version the request was made in.
func (a *apiServer) validateCreate(ctx context.Context, u *unstructured.Unstructured) field.ErrorList {
	v := a.served(u.GroupVersionKind())
	if v == nil {
		return nil
	}
	v.strategy.PrepareForCreate(ctx, u)
	return v.strategy.Validate(ctx, u)
}

// validateUpdate runs PrepareForUpdate and ValidateUpdate; the fields the API server keeps from the
// stored object (rest.BeforeUpdate) are copied first.
func (a *apiServer) validateUpdate(ctx context.Context, u, old *unstructured.Unstructured) field.ErrorList {
	v := a.served(u.GroupVersionKind())
	if v == nil {
		return nil
	}
	u.SetUID(old.GetUID())
	u.SetCreationTimestamp(old.GetCreationTimestamp())
	u.SetResourceVersion(old.GetResourceVersion())
	u.SetGeneration(old.GetGeneration())
	v.strategy.PrepareForUpdate(ctx, u, old)
	return v.strategy.ValidateUpdate(ctx, u, old)
}

// newStrategy wraps customresource.NewStrategy, whose result type is unexported.
func newStrategy(typer runtime.ObjectTyper, namespaced bool, gvk schema.GroupVersionKind, validator, statusValidator apiservervalidation.SchemaValidator,
	structural *structuralschema.Structural, status *apiextensionsinternal.CustomResourceSubresourceStatus, scale *apiextensionsinternal.CustomResourceSubresourceScale) crdStrategy {
	return customresource.NewStrategy(typer, namespaced, gvk, validator, statusValidator, structural, status, scale, nil)
}
