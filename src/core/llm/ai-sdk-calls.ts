// The AI SDK's calls the adapters and the embedder make, loaded through a dynamic import of this module: a dynamic
// import of `ai` itself would have the bundler keep all of the package for its namespace; through this module it
// keeps what these need.
export { embedMany, generateText } from 'ai';
