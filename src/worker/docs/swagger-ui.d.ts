// Swagger UI's browser bundle and stylesheet, imported as text (`with { type: 'text' }`) so the Worker serves them.
declare module 'swagger-ui-dist/swagger-ui-bundle.js' {
  const text: string;
  export default text;
}
declare module 'swagger-ui-dist/swagger-ui.css' {
  const text: string;
  export default text;
}
