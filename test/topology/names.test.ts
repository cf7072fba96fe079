/**
 * Object names (topology-semantics §3). The shapes and limits follow CAPI's
 * internal/topology/names/names.go (`templateGenerator.GenerateName`, `simpleNameGenerator`,
 * the `*NamePrefix` functions) and its names_test.go cases; CAPI's random characters are replaced
 * by a deterministic digest, so only their alphabet and count are asserted here.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Json, JsonObject } from '../../src/core/model.js';
import {
  PLACEHOLDER_SUFFIX,
  RANDOM_ALPHABET,
  contentSuffix,
  det5,
  generateStableName,
  prefixName,
  stablePrefixName,
  truncateBytes,
  type NameTemplateInput,
} from '../../src/names/names.js';

/** Five characters of k8s.io/apimachinery/pkg/util/rand's alphabet (utilrand.String(5)). */
const RANDOM = '[bcdfghjklmnpqrstvwxz2456789]{5}';
const name = (input: NameTemplateInput): string => {
  const out = generateStableName(input);
  if (!out.ok) throw new Error(out.error);
  return out.name;
};
const error = (input: NameTemplateInput): string => {
  const out = generateStableName(input);
  if (out.ok) throw new Error(`expected an error, got ${out.name}`);
  return out.error;
};
const cp = (template?: string, clusterName = 'c1'): NameTemplateInput => ({
  role: 'control-plane',
  namespace: 'ns',
  clusterName,
  ...(template !== undefined ? { template } : {}),
});
const md = (template?: string, clusterName = 'c1'): NameTemplateInput => ({
  role: 'machine-deployment',
  namespace: 'ns',
  clusterName,
  topologyName: 'md-0',
  topologyKey: 'machineDeployment',
  ...(template !== undefined ? { template } : {}),
});
const mp = (template?: string): NameTemplateInput => ({
  role: 'machine-pool',
  namespace: 'ns',
  clusterName: 'c1',
  topologyName: 'mp-0',
  topologyKey: 'machinePool',
  ...(template !== undefined ? { template } : {}),
});

describe('deterministic random part', () => {
  it('det5 is five characters of the apimachinery alphabet, stable for the same parts (seed 18)', () => {
    expect(RANDOM_ALPHABET).toBe('bcdfghjklmnpqrstvwxz2456789'); // utilrand's alphanums
    fc.assert(
      fc.property(fc.array(fc.string(), { maxLength: 4 }), (parts) => {
        const a = det5(...parts);
        expect(a).toMatch(new RegExp(`^${RANDOM}$`));
        expect(det5(...parts)).toBe(a);
      }),
      { seed: 18 },
    );
  });

  it('separates parts with NUL so ("ab","c") and ("a","bc") differ', () => {
    expect(det5('ab', 'c')).not.toBe(det5('a', 'bc'));
  });

  it('the placeholder suffix is five characters outside the alphabet, so it never equals a generated one', () => {
    expect(PLACEHOLDER_SUFFIX).toMatch(/^0{5}$/);
  });
});

describe('default naming templates (desired_state.go defaults)', () => {
  it('control plane / infrastructure cluster: {{ .cluster.name }}-{{ .random }}', () => {
    expect(name(cp())).toMatch(new RegExp(`^c1-${RANDOM}$`));
    expect(name({ ...cp(), role: 'infrastructure-cluster' })).toMatch(new RegExp(`^c1-${RANDOM}$`));
  });

  it('MachineDeployment / MachinePool: {{ .cluster.name }}-{{ .<topology>.topologyName }}-{{ .random }}', () => {
    expect(name(md())).toMatch(new RegExp(`^c1-md-0-${RANDOM}$`));
    expect(name(mp())).toMatch(new RegExp(`^c1-mp-0-${RANDOM}$`));
  });

  it('the default template and an explicit one with the same text give the same name', () => {
    expect(name(cp('{{ .cluster.name }}-{{ .random }}'))).toBe(name(cp()));
    expect(name(md('{{ .cluster.name }}-{{ .machineDeployment.topologyName }}-{{ .random }}'))).toBe(name(md()));
  });

  it('different Clusters, namespaces, topologies and roles get different random parts', () => {
    const random = (input: NameTemplateInput) => name(input).slice(-5);
    const all = [
      cp(),
      { ...cp(), namespace: 'other' },
      cp(undefined, 'c2'),
      { ...cp(), role: 'infrastructure-cluster' as const },
      md(),
      { ...md(), topologyName: 'md-1' },
    ];
    expect(new Set(all.map(random)).size).toBe(all.length);
  });
});

describe('custom naming templates (templateGenerator.GenerateName)', () => {
  it('renders .cluster.name, .random and the topology name of its own kind', () => {
    expect(name(cp('{{ .cluster.name }}-cp'))).toBe('c1-cp');
    expect(name(md('{{ .machineDeployment.topologyName }}-{{ .cluster.name }}'))).toBe('md-0-c1');
    expect(name(mp('{{ .machinePool.topologyName }}-{{ .cluster.name }}'))).toBe('mp-0-c1');
    expect(name(cp('x-{{ .random }}'))).toMatch(new RegExp(`^x-${RANDOM}$`));
  });

  it('the template data is exactly what CAPI passes: cluster, random and, for workers, their topology', () => {
    // ControlPlaneNameGenerator / InfraClusterNameGenerator: map{} + cluster + random.
    expect(name(cp('{{ . }}'))).toMatch(new RegExp(`^map\\[cluster:map\\[name:c1\\] random:${RANDOM}\\]$`));
    // MachineDeploymentNameGenerator / MachinePoolNameGenerator add {topologyName} (range visits keys sorted).
    const keys = '{{ range $k, $v := . }}{{ $k }} {{ end }}';
    expect(name(md(keys))).toBe('cluster machineDeployment random ');
    expect(name(md('{{ .machineDeployment }}'))).toBe('map[topologyName:md-0]');
    expect(name(mp(keys))).toBe('cluster machinePool random ');
    expect(name(mp('{{ .machinePool }}'))).toBe('map[topologyName:mp-0]');
  });

  it('a missing key is an error (Option("missingkey=error")), wrapped as "rendering template"', () => {
    // names_test.go "error on due to missing key in data".
    expect(error(cp('some-hardcoded-name-{{ .doesnotexistindata }}'))).toBe(
      'rendering template: template: template name generator:1:23: executing "template name generator" at <.doesnotexistindata>: map has no entry for key "doesnotexistindata"',
    );
    // A MachineDeployment template has no .machinePool (and the control plane neither).
    expect(error(md('{{ .machinePool.topologyName }}'))).toContain('map has no entry for key "machinePool"');
    expect(error(cp('{{ .machineDeployment.topologyName }}'))).toContain(
      'map has no entry for key "machineDeployment"',
    );
  });

  it('a template that does not parse is an error, wrapped as `parsing template %q`', () => {
    // names_test.go "error on parsing template".
    expect(error(cp('some-hardcoded-name-{{ .doesnotexistindata'))).toBe(
      'parsing template "some-hardcoded-name-{{ .doesnotexistindata": template: template name generator:1: unclosed action',
    );
  });

  it('only text/template builtins exist: template.New without Funcs (no sprig)', () => {
    expect(name(cp('{{ printf "%s-%s" .cluster.name "cp" }}'))).toBe('c1-cp');
    expect(name(cp('{{ slice .cluster.name 0 1 }}'))).toBe('c'); // builtin slice, not sprig's list slice
    expect(error(cp('{{ upper .cluster.name }}'))).toBe(
      'parsing template "{{ upper .cluster.name }}": template: template name generator:1: function "upper" not defined',
    );
  });
});

describe('length limits (maxNameLength 63, maxGeneratedNameLength 58)', () => {
  it('a 63-byte result is kept as it is', () => {
    // names_test.go "name which does not get trimmed": fmt.Sprintf("%063d", 0).
    expect(name(cp('0'.repeat(63)))).toBe('0'.repeat(63));
    expect(name(cp(undefined, 'c'.repeat(57)))).toMatch(new RegExp(`^c{57}-${RANDOM}$`));
  });

  it('a 64-byte result is cut to 58 bytes plus five random characters', () => {
    // names_test.go "name which gets trimmed and added a random suffix with 5 characters".
    expect(name(cp('0'.repeat(64)))).toMatch(new RegExp(`^0{58}${RANDOM}$`));
    expect(name(cp(undefined, 'c'.repeat(58)))).toMatch(new RegExp(`^c{58}${RANDOM}$`));
    expect(name(md(undefined, 'c'.repeat(70)))).toMatch(new RegExp(`^c{58}${RANDOM}$`));
  });

  it("the suffix of a cut name is not the untruncated name's random part (a second draw, as CAPI calls utilrand again)", () => {
    const cut = name(cp('{{ .cluster.name }}-{{ .random }}', 'c'.repeat(70)));
    const random = name(cp('{{ .random }}', 'c'.repeat(70)));
    expect(cut.slice(58)).not.toBe(random);
  });

  it('a multi-byte character across byte 58 is dropped whole instead of being split', () => {
    // CAPI slices bytes (name[:58]) and would leave half a character, which no Kubernetes name
    // can hold; the renderer cuts before the character: 57 bytes plus the suffix.
    const out = name(cp(`${'a'.repeat(57)}é${'b'.repeat(10)}`));
    expect(out).toMatch(new RegExp(`^a{57}${RANDOM}$`));
    expect(truncateBytes(`${'a'.repeat(56)}€x`, 58)).toBe('a'.repeat(56)); // € is 3 bytes
    expect(truncateBytes(`${'a'.repeat(55)}€x`, 58)).toBe(`${'a'.repeat(55)}€`);
  });

  it('truncateBytes keeps whole characters only: a prefix of its input within the byte limit (seed 18)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 80 }), fc.integer({ min: 0, max: 70 }), (s, max) => {
        const cut = truncateBytes(s, max);
        expect(s.startsWith(cut)).toBe(true);
        expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(max);
        // Nothing more fits: the next code point would cross the limit.
        const next = s.slice(cut.length).codePointAt(0);
        if (next !== undefined) expect(Buffer.byteLength(cut + String.fromCodePoint(next))).toBeGreaterThan(max);
      }),
      { seed: 18 },
    );
  });
});

describe('prefix names (SimpleNameGenerator over the *NamePrefix functions)', () => {
  it('prefixName: the prefix cut to 58 bytes, then the suffix', () => {
    expect(prefixName('c1-md-0-', 'bcdfg')).toBe('c1-md-0-bcdfg');
    expect(prefixName('p'.repeat(58), 'bcdfg')).toBe(`${'p'.repeat(58)}bcdfg`);
    expect(prefixName('p'.repeat(59), 'bcdfg')).toBe(`${'p'.repeat(58)}bcdfg`);
  });

  it('MachinePool bootstrap and infrastructure objects: <cluster>-<pool>-<random>, distinct per role', () => {
    // BootstrapConfigNamePrefix / InfrastructureMachinePoolNamePrefix: "%s-%s-".
    const boot = stablePrefixName('mp-bootstrap', 'ns', 'c1', 'mp-0');
    const infra = stablePrefixName('mp-infrastructure', 'ns', 'c1', 'mp-0');
    expect(boot).toMatch(new RegExp(`^c1-mp-0-${RANDOM}$`));
    expect(infra).toMatch(new RegExp(`^c1-mp-0-${RANDOM}$`));
    expect(boot).not.toBe(infra);
    expect(stablePrefixName('mp-bootstrap', 'ns', 'c'.repeat(60), 'mp-0')).toMatch(new RegExp(`^c{58}${RANDOM}$`));
  });
});

describe('rotating template names (reconcileReferencedTemplate rotates on spec changes only)', () => {
  const template = (spec: Json, extra: JsonObject = {}): JsonObject => ({
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'DevMachineTemplate',
    metadata: { name: 'x' },
    spec,
    ...extra,
  });

  it('a spec change gives a new suffix; metadata changes (patched in place by CAPI) do not', () => {
    const base = contentSuffix(template({ template: { spec: { image: 'a' } } }));
    expect(base).toMatch(new RegExp(`^${RANDOM}$`));
    expect(contentSuffix(template({ template: { spec: { image: 'b' } } }))).not.toBe(base);
    expect(
      contentSuffix(template({ template: { spec: { image: 'a' } } }, { metadata: { name: 'y', labels: { l: 'v' } } })),
    ).toBe(base);
  });

  it('a template of another kind or apiVersion is another object, with another suffix', () => {
    const spec = { template: { spec: {} } };
    const base = contentSuffix(template(spec));
    expect(contentSuffix(template(spec, { kind: 'OtherMachineTemplate' }))).not.toBe(base);
    expect(contentSuffix(template(spec, { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1' }))).not.toBe(base);
  });
});
