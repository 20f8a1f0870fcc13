// The HTML and start-up script of GET /docs (contract §5.8.2). Both are static: the page loads only
// the project's own copy of Swagger UI and its own /v1/openapi.json, so the CSP can forbid every
// other origin and an inline script is never needed.

/** The Swagger UI files the page loads, the only ones /docs/assets serves. */
export const DOCS_ASSETS: readonly string[] = [
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'favicon-32x32.png',
];

export const DOCS_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Technology Contract Opportunity Read API: reference</title>
    <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" />
    <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="/docs/assets/swagger-ui-bundle.js"></script>
    <script src="/docs/init.js"></script>
  </body>
</html>
`;

// validatorUrl null: Swagger UI would otherwise send the document to an external validator.
// The document's server is '/', so "Try it out" calls the instance that serves this page.
// "Try it out" is on from the start, and the key given to "Authorize" is kept in the
// browser's storage for this origin, so a reload does not ask for it again (Swagger UI's
// persistAuthorization; "Logout" in the same dialog forgets it). Operations are grouped by the
// document's tags, in the document's order; the first screen is the document's info.description.
export const DOCS_INIT_JS = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/v1/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    tryItOutEnabled: true,
    persistAuthorization: true,
    docExpansion: 'list',
    displayRequestDuration: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

// 'unsafe-inline' for styles only: Swagger UI's React components set style attributes.
export const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');
