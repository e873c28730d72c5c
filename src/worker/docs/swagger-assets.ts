// Swagger UI's browser bundle (1.7 MB) and stylesheet as text, loaded when /docs/assets asks for them rather than
// with the Worker: no other route pays for parsing them.
import swaggerScript from 'swagger-ui-dist/swagger-ui-bundle.js' with { type: 'text' };
import swaggerStyle from 'swagger-ui-dist/swagger-ui.css' with { type: 'text' };

export { swaggerScript, swaggerStyle };
