/** explain / provenance (issue #6): where each field of a rendered object came from. */
export { explainCluster, explainRendered, type ExplainRenderedInput } from './provenance.js';
export { provenanceReport, PROVENANCE_API_VERSION, PROVENANCE_KIND, type ProvenanceInput, type ProvenanceOptions } from './report.js';
export { describeSource, describePatch, filterFields, formatObjectText, formatText, selectObject, type Selection, type TextOptions } from './format.js';
export { parsePath, formatPath } from './paths.js';
export type { ExplainResult, ExplainedObject, FieldOrigin, PatchEvaluation, PatchSource, Source, TemplateId, VariableUse } from './types.js';
