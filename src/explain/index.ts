/** explain / provenance (issue #6): where each field of a rendered object came from, as the render recorded it. */
export { explainCluster } from './provenance.js';
export { explainObjects } from './objects.js';
export { provenanceReport, PROVENANCE_API_VERSION, PROVENANCE_KIND, type ProvenanceInput, type ProvenanceOptions } from './report.js';
export { describeSource, describePatch, filterFields, formatObjectText, formatText, selectObject, type Selection, type TextOptions } from './format.js';
export { parsePath, formatPath } from './paths.js';
export type { ExplainResult, ExplainedObject, ExternalPatchSource, FieldOrigin, PatchEvaluation, PatchSource, Source, TemplateId, VariableUse } from './types.js';
