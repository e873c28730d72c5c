// The mock domain, as registered in domains/registry.ts.
export { mockDomain, MOCK_FILES } from './environment.ts';
