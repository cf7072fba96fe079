//go:build capi_v1_12 || capi_v1_13

package main

// CAPI v1.12 and v1.13: the webhooks and the ClusterClass controller are internal; their public
// aliases (sigs.k8s.io/cluster-api/webhooks, sigs.k8s.io/cluster-api/controllers) register them on
// a manager and expose Reconcile and DefaultAndValidateVariables. Conversions are the v1beta1
// types' own ConvertTo/ConvertFrom, served by controller-runtime's conversion webhook.

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller"

	clusterv1beta1 "sigs.k8s.io/cluster-api/api/core/v1beta1"
	"sigs.k8s.io/cluster-api/api/core/v1beta2/index"
	runtimev1 "sigs.k8s.io/cluster-api/api/runtime/v1beta2"
	"sigs.k8s.io/cluster-api/controllers"
	"sigs.k8s.io/cluster-api/webhooks"
)

func addRuntimeToScheme(s *runtime.Scheme) error { return runtimev1.AddToScheme(s) }

func clusterClassRefIndex() (string, client.IndexerFunc) {
	return index.ClusterClassRefPath, index.ClusterByClusterClassRef
}

// setupCAPI registers CAPI's ClusterClass and Cluster webhooks as main.go does, and the
// ClusterClass controller (its alias needs SetupWithManager before Reconcile).
func setupCAPI(ctx context.Context, mgr ctrl.Manager, c client.Client, apiVersionOf func(schema.GroupKind) (string, error)) (capi, error) {
	clusterv1beta1.SetAPIVersionGetter(apiVersionOf)
	if err := (&webhooks.ClusterClass{Client: c}).SetupWebhookWithManager(mgr); err != nil {
		return capi{}, err
	}
	clusterWebhook := &webhooks.Cluster{Client: c, ClusterCacheReader: workloadClusters{}}
	if err := clusterWebhook.SetupWebhookWithManager(mgr); err != nil {
		return capi{}, err
	}
	reconciler := &controllers.ClusterClassReconciler{Client: c}
	if err := reconciler.SetupWithManager(ctx, mgr, controller.Options{}); err != nil {
		return capi{}, err
	}
	return capi{
		reconcileClusterClass:       reconciler.Reconcile,
		defaultAndValidateVariables: clusterWebhook.DefaultAndValidateVariables,
	}, nil
}
