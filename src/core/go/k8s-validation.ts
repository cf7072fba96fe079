/** Kubernetes validation primitives shared by the ClusterClass and Cluster rules. */
import { parse as semverParse } from 'semver';
import { semverText } from './primitives.js';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** IsDNS1123Subdomain: the messages Kubernetes reports, empty when valid. */
export function dns1123SubdomainErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  const ok = value.split('.').every((part) => DNS1123_LABEL.test(part));
  if (!ok) {
    errs.push(
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    );
  }
  return errs;
}

/**
 * The name the API server accepts for a custom resource (every object this tool renders is one):
 * a lowercase RFC 1123 subdomain (apiextensions-apiserver pkg/registry/customresource/validator.go
 * `Validate`: ValidateObjectMetaAccessor with NameIsDNSSubdomain). An object it refuses never
 * reaches a webhook.
 */
export const objectNameErrors = (name: string): string[] => dns1123SubdomainErrors(name);

/** IsValidLabelValue messages, empty when valid. */
export function labelValueErrors(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 63) errs.push('must be no more than 63 characters');
  if (!LABEL_VALUE.test(value)) {
    errs.push(
      "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    );
  }
  return errs;
}

/**
 * blang `semver.Parse` (the Cluster webhook's check, `core/webhooks/admission/cluster.go`
 * `validateTopology`): `major.minor.patch[-pre][+build]`, no leading zeros. Build metadata such as
 * `+rke2r1` is valid; it must survive the round trip (npm semver's `valid` drops it).
 */
export function isStrictSemver(v: string): boolean {
  const parsed = semverParse(v, { loose: false });
  return parsed !== null && semverText(parsed) === v;
}
