/** The classes of a run, compiled once each, over templates as the API server stores them. */
import type { ClusterClass, JsonObject, ObjectRef, TemplateRef } from '../core/model.js';
import { hasErrors, type Result } from '../core/result.js';
import { capiProfileOf, type RenderConfig } from '../krm/config.js';
import { normalizeCluster, normalizeClusterClass } from '../api/normalize.js';
import { templateRefsOf } from '../api/refs.js';
import { buildBlueprint, templateKey, type Blueprint, type TemplateIndex } from '../blueprint/blueprint.js';
import type { ContractLookup } from '../blueprint/contract.js';
import type { CrdIndex } from '../apiserver/crds.js';
import { storedTemplate } from '../apiserver/admission.js';
import { apiServerDecodingErrors } from '../apiserver/strict.js';
import type { ExtensionClient } from '../extensions/client.js';
import type { TemplateDefaults } from '../provenance/recorder.js';
import { classKeyOf, clusterKey, namespacedRef, type IdentifiedItem } from './classify.js';
import { internalError } from './results.js';
import { checksNumberRanges, newSchemaCompiler } from '../variables/openapi.js';

/**
 * A compiled class, with the document it was read from (explain names its fields as written);
 * `templatesRefused` when the API server refuses one of its templates: the class is admitted and
 * its Clusters are judged against it, but none of them can be reconciled.
 */
type BlueprintEntry =
  { ok: true; blueprint: Blueprint; document: JsonObject; templatesRefused: boolean } | { ok: false };

/** Validates an input object against its CRD (each object once); absent without CRDs. */
export type InputCheck = (obj: JsonObject, ref: ObjectRef) => Result[];

export interface BlueprintCache {
  /** The class `namespace/name`, compiled on first use; undefined when no input holds it. */
  get(key: string): BlueprintEntry | undefined;
  /** `templateKey`s of the templates the classes used so far reference. */
  classTemplates: Set<string>;
  /** Every class of the input, `namespace/name` (what a missing class may have meant). */
  keys: readonly string[];
}

/** What compiling a class reads besides the class. */
export interface BlueprintInputs {
  templates: TemplateIndex;
  config: RenderConfig;
  contractOf: ContractLookup;
  crds: CrdIndex;
  extensions: ExtensionClient | undefined;
  checkInput: InputCheck | undefined;
}

/**
 * ClusterClasses by `namespace/name`, compiled the first time a Cluster of this run uses them;
 * `checkInput` sees each used class and the templates it references, as written. The API server
 * refuses a class its CRD schema rejects: such a class is not compiled (its validating webhook
 * never runs). A template it refuses leaves the class's Clusters unrendered (`templateRefused`).
 */
export function blueprintCache(
  classes: readonly IdentifiedItem[],
  inputs: BlueprintInputs,
  results: Result[],
): BlueprintCache {
  const ns = inputs.config.defaultNamespace;
  // Every class is decoded as the API server would, used or not: one it rejects is never compiled.
  const rejected = new Set<IdentifiedItem>();
  for (const item of classes) {
    const decoding = apiServerDecodingErrors(
      item.value,
      namespacedRef(item, ns),
      inputs.crds,
      capiProfileOf(inputs.config),
    );
    results.push(...decoding);
    if (hasErrors(decoding)) rejected.add(item);
  }
  const docs = new Map<string, IdentifiedItem>();
  for (const item of classes) docs.set(clusterKey(item.ref.namespace ?? ns, item.ref.name), item);
  const cache = new Map<string, BlueprintEntry>();
  const schemas = newSchemaCompiler({ numberRanges: checksNumberRanges(capiProfileOf(inputs.config)) });
  const classTemplates = new Set<string>();
  const get = (key: string): BlueprintEntry | undefined => {
    const cached = cache.get(key);
    if (cached) return cached;
    const item = docs.get(key);
    if (!item) return undefined;
    const ref = namespacedRef(item, ns);
    let entry: BlueprintEntry = { ok: false };
    try {
      const { config, templates, contractOf, extensions, checkInput } = inputs;
      const schemaErrors = checkInput ? checkInput(item.value, ref) : [];
      results.push(...schemaErrors);
      const refused = rejected.has(item) || hasErrors(schemaErrors);
      // A class the API server refuses is read only for its templates' references: the API
      // server judges each template it is sent, whatever becomes of the class.
      const normalized = normalizeClusterClass(item.value, ref);
      if (!refused) results.push(...normalized.results);
      const cc: ClusterClass | undefined = normalized.value;
      if (cc) {
        const refusedTemplates: Result[] = [];
        for (const t of templateRefsOf(cc)) {
          classTemplates.add(templateKey(t.apiVersion, t.kind, cc.namespace, t.name));
          const written = checkInput && templates.get(t.apiVersion, t.kind, cc.namespace, t.name);
          if (!written) continue;
          const errors = checkInput(written, {
            apiVersion: t.apiVersion,
            kind: t.kind,
            namespace: cc.namespace,
            name: t.name,
          });
          results.push(...errors);
          if (hasErrors(errors)) refusedTemplates.push(templateRefused(ref, t));
        }
        if (!refused) {
          const built = buildBlueprint(cc, ref, templates, {
            capi: capiProfileOf(config),
            skipExternalPatches: config.skipExternalPatches,
            contractOf,
            schemas,
            ...(extensions ? { extensions } : {}),
          });
          results.push(...built.results, ...refusedTemplates);
          if (built.blueprint)
            entry = {
              ok: true,
              blueprint: built.blueprint,
              document: item.value,
              templatesRefused: refusedTemplates.length > 0,
            };
        }
      }
    } catch (e) {
      results.push(internalError(ref, e));
    }
    cache.set(key, entry);
    return entry;
  };
  return { get, classTemplates, keys: [...docs.keys()] };
}

/**
 * A template of the class that its CRD schema refuses does not exist live, and CAPI's topology
 * controller reads every template of the class before it computes anything (v1.12/v1.13
 * internal/controllers/topology/cluster/blueprint.go, v1.14 core/reconcilers/topology/cluster/
 * blueprint.go `getBlueprint`): none of the class's Clusters is reconciled, so none is rendered.
 * The webhooks read no template, so the class and its Clusters are still admitted or refused.
 */
const templateRefused = (classRef: ObjectRef, t: TemplateRef): Result => ({
  severity: 'error',
  message: `${t.kind} "${t.name}" (${t.apiVersion}) is refused by the API server (see its results), so CAPI cannot read this ClusterClass's templates: none of its Clusters is rendered, and their earlier output is kept`,
  resourceRef: classRef,
  field: { path: t.fieldPath },
  tags: { rule: 'template-refused' },
});

/**
 * The template index as the API server stores templates (CAPI core/reconcilers/topology/cluster/cluster_controller.go `reconcile`: CRD structural defaults and the
 * emulated defaulting webhooks, `storedTemplate`), and, for provenance, the defaults applied to
 * each (the defaulting run again, observed).
 */
export function defaultedTemplates(
  templates: TemplateIndex,
  crds: CrdIndex,
): { index: TemplateIndex; defaults: TemplateDefaults } {
  const cache = new Map<string, JsonObject | undefined>();
  const written = new Map<JsonObject, JsonObject>();
  const index: TemplateIndex = {
    get(apiVersion, kind, namespace, name) {
      const key = templateKey(apiVersion, kind, namespace, name);
      if (!cache.has(key)) {
        const t = templates.get(apiVersion, kind, namespace, name);
        const defaulted = t && storedTemplate(crds, t);
        if (t && defaulted) written.set(defaulted, t);
        cache.set(key, defaulted);
      }
      return cache.get(key);
    },
  };
  const defaults: TemplateDefaults = (defaulted) => {
    const t = written.get(defaulted);
    const out: { path: (string | number)[]; detail: string }[] = [];
    if (t) storedTemplate(crds, t, (path, detail) => out.push({ path, detail }));
    return out;
  };
  return { index, defaults };
}

/**
 * A ClusterClass that no Cluster uses is applied all the same, and CAPI's webhooks and the API
 * server judge it and its templates: compiled here for its results. Every shard reads every class,
 * so only the first shard judges those that no Cluster of the input uses.
 */
export function judgeUnusedClasses(
  blueprints: BlueprintCache,
  clusters: readonly IdentifiedItem[],
  ns: string,
  shard: { index: number } | undefined,
): void {
  if (shard && shard.index !== 0) return;
  const used = shard
    ? new Set(
        clusters.flatMap((i) => {
          const c = normalizeCluster(i.value, namespacedRef(i, ns)).value;
          return c ? [classKeyOf(c)] : [];
        }),
      )
    : undefined;
  for (const key of blueprints.keys) if (!used?.has(key)) blueprints.get(key);
}
