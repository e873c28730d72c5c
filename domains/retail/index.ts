// The retail domain, as registered in domains/registry.ts.
export { retailDomain, RETAIL_FILES } from './environment.ts';
