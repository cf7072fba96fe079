//go:build !capi_v1_12 && !capi_v1_13

package main

// CAPI v1.14 and later: the webhooks, conversions and the ClusterClass controller are public
// packages under core/ (sigs.k8s.io/cluster-api/api is a module of its own).

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"

	runtimev1 "sigs.k8s.io/cluster-api/api/runtime/v1beta2"
	"sigs.k8s.io/cluster-api/core/reconcilers/clusterclass"
	coreadmission "sigs.k8s.io/cluster-api/core/webhooks/admission"
	"sigs.k8s.io/cluster-api/core/webhooks/conversion"
	"sigs.k8s.io/cluster-api/util/index"
)

func addRuntimeToScheme(s *runtime.Scheme) error { return runtimev1.AddToScheme(s) }

func clusterClassRefIndex() (string, client.IndexerFunc) {
	return index.ClusterClassRefPath, index.ClusterByClusterClassRef
}

// setupCAPI registers CAPI's ClusterClass and Cluster webhooks (with their conversion webhook) as
// core/main.go does, and wires the ClusterClass controller.
func setupCAPI(_ context.Context, mgr ctrl.Manager, c client.Client, apiVersionOf func(schema.GroupKind) (string, error)) (capi, error) {
	conversion.SetAPIVersionGetter(func(_ context.Context, gk schema.GroupKind) (string, error) { return apiVersionOf(gk) })
	if err := (&coreadmission.ClusterClass{Client: c}).SetupWebhookWithManager(mgr); err != nil {
		return capi{}, err
	}
	clusterWebhook := &coreadmission.Cluster{Client: c, ClusterCacheReader: workloadClusters{}}
	if err := clusterWebhook.SetupWebhookWithManager(mgr); err != nil {
		return capi{}, err
	}
	reconciler := &clusterclass.Reconciler{Client: c}
	return capi{
		reconcileClusterClass:       reconciler.Reconcile,
		defaultAndValidateVariables: clusterWebhook.DefaultAndValidateVariables,
	}, nil
}
