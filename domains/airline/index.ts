// The airline domain, as registered in domains/registry.ts.
export { airlineDomain, AIRLINE_FILES } from './environment.ts';
