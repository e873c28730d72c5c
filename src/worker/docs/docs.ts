// /docs: the API reference, rendered in the browser by Swagger UI from /v1/openapi.json. Its script and
// stylesheet are part of the Worker and served from /docs/assets, so the page needs no other site and works
// offline; the page's CSP allows nothing else (no validator badge, no fonts from elsewhere).
import { Hono } from 'hono';
import { html, raw } from 'hono/html';
import { NONCE, secureHeaders } from 'hono/secure-headers';
import type { SecureHeadersVariables } from 'hono/secure-headers';
import { API_PREFIX } from '../../api/index.ts';

const SCRIPT_PATH = '/docs/assets/swagger-ui-bundle.js';
const STYLE_PATH = '/docs/assets/swagger-ui.css';
/** The assets change only with the package, whose version is in the lock file: a day is safe. */
const ASSET_CACHE = 'public, max-age=86400';

const swaggerAssets = () => import('./swagger-assets.ts');

const start = (specUrl: string): string =>
  `window.ui = SwaggerUIBundle({ url: ${JSON.stringify(specUrl)}, dom_id: '#docs', validatorUrl: null, deepLinking: true });`;

export const docsRoutes = new Hono<{ Variables: SecureHeadersVariables }>()
  .get(SCRIPT_PATH, async (c) => c.body((await swaggerAssets()).swaggerScript, 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': ASSET_CACHE }))
  .get(STYLE_PATH, async (c) => c.body((await swaggerAssets()).swaggerStyle, 200, { 'content-type': 'text/css; charset=utf-8', 'cache-control': ASSET_CACHE }))
  .get(
    '/docs',
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'self'", NONCE],
        // Swagger UI sets style attributes on its elements.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
      },
      referrerPolicy: 'same-origin',
    }),
    (c) =>
      c.html(html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>tau2-edge API</title>
<link rel="stylesheet" href="${STYLE_PATH}">
</head>
<body>
<main id="docs"></main>
<script src="${SCRIPT_PATH}"></script>
<script nonce="${c.get('secureHeadersNonce') ?? ''}">${raw(start(`${API_PREFIX}/openapi.json`))}</script>
</body>
</html>`),
  );
