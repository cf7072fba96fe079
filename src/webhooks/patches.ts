/**
 * The ClusterClass webhook's patch rules (CAPI core/webhooks/admission/patch_validation.go `validatePatches` and CAPI core/webhooks/admission/clusterclass.go rule 9): CAPI's
 * `validatePatches` (core/webhooks/admission/patch_validation.go) with its field paths, texts and
 * bad values, in its order. Calling external patches is the patch compiler's business (see
 * `skipExternalPatches`); this only checks that the RuntimeSDK gate allows them. Templates are
 * parsed, not executed.
 *
 * Bad values are printed as `field.Error` does: strings `%q`-quoted — which includes CAPI's
 * `prettyPrint` (indented JSON) of a JSON patch or selector — and structs as compact JSON.
 */
import type {
  ClusterClass,
  ClusterClassPatch,
  Json,
  JsonPatchOperation,
  ObjectRef,
  PatchDefinition,
  PatchSelector,
  TemplateRef,
} from '../core/model.js';
import { parseTemplate } from '../gotemplate/index.js';
import type { Result } from '../core/result.js';
import type { CapiProfile } from '../core/capi-release.js';
import { goAtoi } from '../core/go/strconv.js';
import {
  fieldError,
  forbidden,
  goQuote,
  invalid,
  notSupported,
  required,
  type FieldError,
} from '../core/fielderror.js';
import { goMarshal } from '../core/go/json.js';
import { qualifiedNameErrors } from '../variables/labels.js';
import { FIX, fixed, toResults, withFix } from '../core/fixes.js';

// ------------------------------------------------------------------ builtin allow-list

const WORKER_BUILTINS = [
  'class',
  'name',
  'replicas',
  'topologyName',
  'version',
  'metadata.labels',
  'metadata.annotations',
  'bootstrap.configRef.name',
  'infrastructureRef.name',
];
const under = (prefix: string, fields: readonly string[]): string[] => [prefix, ...fields.map((f) => `${prefix}.${f}`)];

/** `builtinVariables`: the only `builtin.` paths `valueFrom.variable` may use (CAPI core/reconcilers/topology/cluster/patches/variables/variables.go `Global`). */
const BUILTIN_VARIABLES: ReadonlySet<string> = new Set([
  'builtin',
  ...under('builtin.cluster', ['name', 'namespace', 'uid', 'metadata.labels', 'metadata.annotations']),
  ...under('builtin.cluster.topology', ['classRef.name', 'classRef.namespace', 'class', 'classNamespace', 'version']),
  ...under('builtin.cluster.network', ['serviceDomain', 'services', 'pods']),
  ...under('builtin.controlPlane', [
    'name',
    'replicas',
    'version',
    'metadata.labels',
    'metadata.annotations',
    'machineTemplate.infrastructureRef.name',
  ]),
  ...under('builtin.machineDeployment', WORKER_BUILTINS),
  ...under('builtin.machinePool', WORKER_BUILTINS),
]);

/** The allowed paths under the deepest known prefix of `variable` (one level only when that is long). */
function builtinSuggestions(variable: string): string[] {
  const segments = variable.split('.');
  for (let k = segments.length - 1; k >= 1; k--) {
    const prefix = segments.slice(0, k).join('.') + '.';
    const below = [...BUILTIN_VARIABLES].filter((b) => b.startsWith(prefix));
    if (below.length === 0) continue;
    return below.length <= 10 ? below : below.filter((b) => !b.slice(prefix.length).includes('.'));
  }
  return [];
}

// ------------------------------------------------------------------ Go JSON of the API types

/** `json.Marshal` of a Go struct: fields in declaration order, `omitempty` ones (undefined) left out. */
const struct = (fields: readonly (readonly [string, string | undefined])[]): string =>
  `{${fields.flatMap(([k, v]) => (v === undefined ? [] : [`${goMarshal(k)}:${v}`])).join(',')}}`;
const str = (s: string | undefined): string | undefined => (s ? goMarshal(s) : undefined);
const bool = (b: boolean | undefined): string | undefined => (b === undefined ? undefined : String(b));
const list = (items: readonly string[]): string | undefined => (items.length > 0 ? `[${items.join(',')}]` : undefined);
/** A JSON `null` value decodes to a nil `*apiextensionsv1.JSON` (the API server prunes it): unset. */
const hasValue = (op: JsonPatchOperation): op is JsonPatchOperation & { value: Json } =>
  op.value !== undefined && op.value !== null;

const valueFromJson = (vf: NonNullable<JsonPatchOperation['valueFrom']>): string =>
  struct([
    ['variable', str(vf.variable)],
    ['template', str(vf.template)],
  ]);

const jsonPatchJson = (op: JsonPatchOperation): string =>
  struct([
    ['op', str(op.op)],
    ['path', str(op.path)],
    ['value', hasValue(op) ? goMarshal(op.value) : undefined],
    ['valueFrom', op.valueFrom ? valueFromJson(op.valueFrom) : undefined],
  ]);

/** `PatchSelector` (`matchResources` and the selector itself are `omitzero`). */
function selectorJson(s: PatchSelector): string | undefined {
  const mr = s.matchResources;
  const names = (c: { names: string[] } | undefined) =>
    c ? struct([['names', list(c.names.map(goMarshal))]]) : undefined;
  const matchFields = [
    ['controlPlane', bool(mr.controlPlane)],
    ['infrastructureCluster', bool(mr.infrastructureCluster)],
    ['machineDeploymentClass', names(mr.machineDeploymentClass)],
    ['machinePoolClass', names(mr.machinePoolClass)],
  ] as const;
  const matchResources = matchFields.some(([, v]) => v !== undefined) ? struct(matchFields) : undefined;
  if (!s.apiVersion && !s.kind && matchResources === undefined) return undefined;
  return struct([
    ['apiVersion', str(s.apiVersion)],
    ['kind', str(s.kind)],
    ['matchResources', matchResources],
  ]);
}

const definitionJson = (d: PatchDefinition): string =>
  struct([
    ['selector', selectorJson(d.selector)],
    ['jsonPatches', list(d.jsonPatches.map(jsonPatchJson))],
  ]);

function externalJson(e: NonNullable<ClusterClassPatch['external']>): string {
  const settings = e.settings && Object.keys(e.settings).length > 0 ? goMarshal(e.settings) : undefined;
  return struct([
    ['generatePatchesExtension', str(e.generatePatchesExtension)],
    ['validateTopologyExtension', str(e.validateTopologyExtension)],
    ['discoverVariablesExtension', str(e.discoverVariablesExtension)],
    ['settings', settings],
  ]);
}

const patchJson = (p: ClusterClassPatch): string =>
  struct([
    ['name', str(p.name)],
    ['description', str(p.description)],
    ['enabledIf', str(p.enabledIf)],
    ['definitions', list((p.definitions ?? []).map(definitionJson))],
    ['external', p.external ? externalJson(p.external) : undefined],
  ]);

/** Go `json.Indent(dst, src, "", "  ")` of compact JSON: CAPI's `prettyPrint` (`json.MarshalIndent`). */
function indentJson(src: string): string {
  let out = '';
  let depth = 0;
  let opened = false;
  let inString = false;
  const newline = () => '\n' + '  '.repeat(depth);
  for (let i = 0; i < src.length; i++) {
    const c = src.charAt(i);
    if (inString) {
      out += c;
      if (c === '\\') out += src.charAt(++i);
      else if (c === '"') inString = false;
      continue;
    }
    if (opened && c !== '}' && c !== ']') {
      opened = false;
      depth++;
      out += newline();
    }
    if (c === '"') {
      inString = true;
      out += c;
    } else if (c === '{' || c === '[') {
      out += c;
      opened = true;
    } else if (c === '}' || c === ']') {
      if (opened) opened = false;
      else {
        depth--;
        out += newline();
      }
      out += c;
    } else if (c === ',') out += c + newline();
    else if (c === ':') out += ': ';
    else out += c;
  }
  return out;
}

// ------------------------------------------------------------------ rules

/** `validatePatchName`; `names` holds the names of the patches before this one. */
function nameErrors(p: ClusterClassPatch, names: ReadonlySet<string>, path: string): FieldError[] {
  const out: FieldError[] = [];
  if (p.name === '') out.push(required(`${path}.name`, withFix('patch name must be defined', FIX.patchName)));
  if (p.name === 'inline')
    out.push(required(`${path}.name`, withFix('"inline" can not be used as the name of a patch', FIX.patchNameInline)));
  if (names.has(p.name)) {
    out.push(
      invalid(
        `${path}.name`,
        p.name,
        withFix(
          `patch names must be unique. Patch with name ${goQuote(p.name)} is defined more than once`,
          FIX.duplicate,
        ),
      ),
    );
  }
  return out;
}

/** A Go template CAPI parses (with sprig's hermetic functions) under `name`. */
function templateErrors(text: string | undefined, name: string, path: string): FieldError[] {
  if (!text) return [];
  const parsed = parseTemplate(text, { name, functions: 'sprig-hermetic' });
  return parsed.ok
    ? []
    : [invalid(path, text, withFix(`template can not be parsed: ${parsed.error}`, FIX.patchTemplate))];
}

/** `validateIndexAccess`: one error per path segment Go's `strconv.Atoi` accepts. */
function indexErrors(op: JsonPatchOperation, path: string): FieldError[] {
  const out: FieldError[] = [];
  for (const part of op.path.split('/')) {
    const index = goAtoi(part);
    if (!index.ok) continue;
    if (op.op === 'add' && index.value !== 0n) {
      out.push(
        invalid(
          path,
          op.path,
          withFix('arrays can only be accessed using "0" (prepend) or "-" (append)', FIX.patchArrayAdd),
        ),
      );
    }
    if (op.op === 'replace' || op.op === 'remove') {
      out.push(
        invalid(
          path,
          op.path,
          withFix(`elements in arrays can not be accessed in a ${op.op} operation`, FIX.patchArrayElement),
        ),
      );
    }
  }
  return out;
}

/** The value has no JSON form (YAML `.inf`/`.nan`): what Go's `json.Unmarshal` of its raw text rejects. */
const notJson = (v: unknown): boolean =>
  typeof v === 'number' ? !Number.isFinite(v) : typeof v === 'object' && v !== null && Object.values(v).some(notJson);

/** `validateJSONPatchValues` (add and replace only). */
function valueErrors(op: JsonPatchOperation, variables: ReadonlySet<string>, path: string): FieldError[] {
  if (op.op !== 'add' && op.op !== 'replace') return [];
  const out: FieldError[] = [];
  const vf = op.valueFrom;
  const pretty = () => indentJson(jsonPatchJson(op));
  if (!hasValue(op) && !vf)
    out.push(
      invalid(path, pretty(), withFix('jsonPatch must define one of value or valueFrom', FIX.patchValueMissing)),
    );
  if (hasValue(op) && vf)
    out.push(invalid(path, pretty(), withFix('jsonPatch can not define both value and valueFrom', FIX.patchValueBoth)));
  if (hasValue(op) && notJson(op.value))
    out.push(
      invalid(`${path}.value`, goMarshal(op.value), withFix('jsonPatch Value is invalid JSON', FIX.patchValueJson)),
    );
  if (!vf) return out;
  const template = vf.template ?? '';
  const variable = vf.variable ?? '';
  if (template === '' && variable === '') {
    out.push(
      invalid(
        `${path}.valueFrom`,
        indentJson(valueFromJson(vf)),
        withFix('valueFrom must set either template or variable', FIX.patchValueFromMissing),
      ),
    );
  }
  if (template !== '' && variable !== '') {
    out.push(
      invalid(
        `${path}.valueFrom`,
        indentJson(valueFromJson(vf)),
        withFix('valueFrom can not set both template and variable', FIX.patchValueFromBoth),
      ),
    );
  }
  out.push(...templateErrors(template, 'valueFrom.template', `${path}.valueFrom.template`));
  if (variable === '') return out;
  const variablePath = `${path}.valueFrom.variable`;
  if (variable.startsWith('builtin.')) {
    if (!BUILTIN_VARIABLES.has(variable))
      out.push(
        invalid(
          variablePath,
          variable,
          withFix('not a defined builtin variable', FIX.patchBuiltin(builtinSuggestions(variable))),
        ),
      );
    return out;
  }
  // getVariableName: the first field of the path split at "." and "["; with none, the webhook
  // panics and controller-runtime turns that into an internal error for the whole request.
  const name = variable.split(/[.[]/).find((f) => f !== '');
  if (name === undefined)
    out.push(
      fieldError(
        'Internal error',
        variablePath,
        withFix('panic: runtime error: index out of range [0] with length 0 [recovered]', FIX.patchVariablePanic),
      ),
    );
  else if (!variables.has(name))
    out.push(
      invalid(
        variablePath,
        variable,
        withFix(`variable with name ${variable} cannot be found`, FIX.patchVariable(name)),
      ),
    );
  return out;
}

/** `validateJSONPatches` for one definition. */
function jsonPatchErrors(d: PatchDefinition, variables: ReadonlySet<string>, base: string): FieldError[] {
  return d.jsonPatches.flatMap((op, k) => {
    const path = `${base}.jsonPatches[${k}]`;
    const out: FieldError[] = [];
    if (op.op !== 'add' && op.op !== 'replace' && op.op !== 'remove') {
      out.push(
        fixed(notSupported(`${path}.op`, indentJson(jsonPatchJson(op)), ['add', 'remove', 'replace']), FIX.patchOp),
      );
    }
    if (!op.path.startsWith('/spec'))
      out.push(
        invalid(
          `${path}.path`,
          indentJson(jsonPatchJson(op)),
          withFix('jsonPatch path must start with "/spec"', FIX.patchPath),
        ),
      );
    out.push(...indexErrors(op, `${path}.path`), ...valueErrors(op, variables, path));
    return out;
  });
}

const matches = (s: PatchSelector, ref: TemplateRef | undefined): boolean =>
  ref !== undefined && s.kind === ref.kind && s.apiVersion === ref.apiVersion;
const refText = (ref: TemplateRef): string => `${ref.apiVersion} ${ref.kind}`;

/** `validateSelectorName`: the first problem of a class name pattern, if any. */
function selectorNameError(name: string, path: string): FieldError | undefined {
  if (!name.includes('*')) return undefined;
  if (name.split('*').length > 2)
    return invalid(path, name, withFix('selector can at most contain a single "*" rune', FIX.patchSelectorStars));
  if (!name.startsWith('*') && !name.endsWith('*'))
    return invalid(
      path,
      name,
      withFix('"*" rune can only appear at the beginning, or ending of the selector', FIX.patchSelectorStarPosition),
    );
  if (qualifiedNameErrors(name.replaceAll('*', 'a')).length > 0)
    return invalid(
      path,
      name,
      withFix('selector does not comply with the Kubernetes naming standards', FIX.patchSelectorName),
    );
  return undefined;
}

/** CAPI's class-name match: `*`, equality, `*suffix`, `prefix*`. */
const classMatches = (pattern: string, cls: string): boolean =>
  pattern === '*' ||
  cls === pattern ||
  (pattern.startsWith('*') && cls.endsWith(pattern.slice(1))) ||
  (pattern.endsWith('*') && cls.startsWith(pattern.slice(0, -1)));

/** `validateSelectors` for one definition. */
function selectorErrors(s: PatchSelector, cc: ClusterClass, base: string): FieldError[] {
  const path = `${base}.selector`;
  const mr = s.matchResources;
  const mdNames = mr.machineDeploymentClass?.names ?? [];
  const mpNames = mr.machinePoolClass?.names ?? [];
  if (mr.infrastructureCluster !== true && mr.controlPlane !== true && mdNames.length === 0 && mpNames.length === 0) {
    return [invalid(path, indentJson(selectorJson(s) ?? '{}'), withFix('no selector enabled', FIX.patchSelectorNone))];
  }
  const out: FieldError[] = [];
  if (mr.infrastructureCluster === true && !matches(s, cc.infrastructure?.templateRef)) {
    const refs = cc.infrastructure ? [refText(cc.infrastructure.templateRef)] : [];
    out.push(
      invalid(
        `${path}.matchResources.infrastructureCluster`,
        true,
        withFix(
          'selector is enabled but does not match the infrastructure ref',
          FIX.patchSelectorTemplate('spec.infrastructure.templateRef', refs),
        ),
      ),
    );
  }
  if (mr.controlPlane === true) {
    const refs = [
      cc.controlPlane.templateRef,
      ...(cc.controlPlane.machineInfrastructure ? [cc.controlPlane.machineInfrastructure.templateRef] : []),
    ];
    if (!refs.some((r) => matches(s, r))) {
      out.push(
        invalid(
          `${path}.matchResources.controlPlane`,
          true,
          withFix(
            'selector is enabled but matches neither the controlPlane ref nor the controlPlane machineInfrastructure ref',
            FIX.patchSelectorTemplate(
              'spec.controlPlane.templateRef or spec.controlPlane.machineInfrastructure.templateRef',
              refs.map(refText),
            ),
          ),
        ),
      );
    }
  }
  const workers = [
    ['machineDeploymentClass', 'MachineDeployment', mdNames, cc.workers.machineDeployments],
    ['machinePoolClass', 'MachinePool', mpNames, cc.workers.machinePools],
  ] as const;
  for (const [key, kind, names, classes] of workers) {
    const usable = classes
      .filter((w) => matches(s, w.infrastructure.templateRef) || matches(s, w.bootstrap.templateRef))
      .map((w) => w.class);
    for (const [i, name] of names.entries()) {
      const namePath = `${path}.matchResources.${key}.names[${i}]`;
      const bad = selectorNameError(name, namePath);
      if (bad) {
        out.push(bad);
        break; // CAPI stops checking this list at the first malformed name
      }
      if (!usable.some((cls) => classMatches(name, cls))) {
        out.push(
          invalid(
            namePath,
            name,
            withFix(
              `selector is enabled but matches neither the bootstrap ref nor the infrastructure ref of a ${kind} class`,
              FIX.patchSelectorWorkerClass(kind, usable),
            ),
          ),
        );
      }
    }
  }
  return out;
}

/** `validatePatchDefinitions`; `runtimeSdk`: the RuntimeSDK feature gate. */
function definitionErrors(
  p: ClusterClassPatch,
  cc: ClusterClass,
  variables: ReadonlySet<string>,
  path: string,
  runtimeSdk: boolean,
): FieldError[] {
  const out = templateErrors(p.enabledIf, 'enabledIf', `${path}.enabledIf`);
  if (!p.definitions && !p.external)
    out.push(required(path, withFix('one of definitions or external must be defined', FIX.patchDefinitionsOrExternal)));
  if (p.definitions && p.external)
    out.push(
      invalid(
        path,
        { go: patchJson(p) },
        withFix('only one of definitions or external can be defined', FIX.patchDefinitionsAndExternal),
      ),
    );
  for (const [j, d] of (p.definitions ?? []).entries()) {
    const base = `${path}.definitions[${j}]`;
    out.push(...jsonPatchErrors(d, variables, base), ...selectorErrors(d.selector, cc, base));
  }
  // Off by default in v1.12.10, v1.13.6 and v1.14.2 (feature/feature.go); the same rule in each.
  if (p.external && !runtimeSdk)
    out.push(
      forbidden(
        `${path}.external`,
        withFix(
          'patch.external can be used only if the RuntimeSDK feature flag is enabled',
          FIX.patchExternalRuntimeSdk,
        ),
      ),
    );
  if (p.external && !p.external.generatePatchesExtension && !p.external.validateTopologyExtension) {
    out.push(
      invalid(
        `${path}.external`,
        { go: externalJson(p.external) },
        withFix(
          'one of validateTopologyExtension and generatePatchesExtension must be defined',
          FIX.patchExternalExtension,
        ),
      ),
    );
  }
  return out;
}

/** The webhook's patch rules for a ClusterClass, as error results on `ref` tagged with the patch name. */
export function validateClusterClassPatches(cc: ClusterClass, ref: ObjectRef, capi: CapiProfile): Result[] {
  const results: Result[] = [];
  const variables = new Set(cc.variables.map((v) => v.name));
  const names = new Set<string>();
  cc.patches.forEach((p, i) => {
    const path = `spec.patches[${i}]`;
    const tags = { patch: p.name };
    results.push(...toResults(nameErrors(p, names, path), ref, 'patch-name', 'error', tags));
    names.add(p.name);
    results.push(
      ...toResults(
        definitionErrors(p, cc, variables, path, capi.gates.RuntimeSDK),
        ref,
        'patch-definitions',
        'error',
        tags,
      ),
    );
  });
  return results;
}
