// The telecom domain and its workflow-policy variant, as registered in domains/registry.ts.
export { TELECOM_FILES, telecomDomain, telecomPolicy, telecomWorkflowDomain } from './environment.ts';
