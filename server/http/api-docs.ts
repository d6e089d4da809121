// The API reference: the OpenAPI document @fastify/swagger builds from the
// routes' schemas, as a page people can read at /api/docs (@fastify/swagger-ui) and as JSON
// at /api/docs/json (YAML at /api/docs/yaml) for tools and tests. The page's scripts,
// styles and icons come from this server (the package's own files), never a CDN, so it
// works where the app does, offline included, and under the app's own Content-Security-
// Policy unchanged: everything it loads is 'self', its logo a data: image, its inline
// styles allowed as the app's are; it calls no validator. Public like the health check:
// it describes the calls and holds no data.
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';

/** Where the JSON document is; the page is at the folder itself. */
export const API_DOCS_JSON = '/api/docs/json';

/** A light and a dark look that follow the app's theme (readable in both; see docs-theme below). */
const DOCS_THEME_CSS = `
body { margin: 0; background: #f5f6fa; }
.swagger-ui .topbar { display: none; }
.swagger-ui .information-container { padding-top: 8px; }
.swagger-ui .scheme-container { background: transparent; box-shadow: none; }
html.dark body { background: #0b1020; }
/* Swagger UI draws in light colours only: the dark theme turns the page round and the
   method colours back, so text stays dark on light, inverted. */
html.dark #swagger-ui { filter: invert(0.9) hue-rotate(180deg); }
html.dark #swagger-ui img { filter: invert(1) hue-rotate(180deg); }
`;

/** Puts the app's theme (client/lib/theme.ts keeps it in localStorage 'theme') on the page. */
const DOCS_THEME_JS = `(function () {
  try {
    var stored = localStorage.getItem('theme');
    var dark = stored === 'dark' || ((!stored || stored === 'system') && window.matchMedia('(prefers-color-scheme: dark)').matches);
    if (dark) document.documentElement.classList.add('dark');
  } catch (e) {}
})();`;

const docsPages: FastifyPluginAsync = async (docs) => {
  // Every route of this plugin (the page, its files, the JSON) is public. The hook lives in
  // this plugin's own context, so no other route is touched.
  docs.addHook('onRoute', (route) => {
    route.config = { ...(route.config as object | undefined), public: true } as typeof route.config;
  });
  await docs.register(swaggerUi, {
    routePrefix: '/docs',
    // Registered under /api: the page's links to its files need the whole path.
    indexPrefix: '/api',
    uiConfig: { docExpansion: 'list', deepLinking: true, defaultModelsExpandDepth: 0, tryItOutEnabled: false },
    theme: {
      title: 'Stockroom API reference',
      css: [{ filename: 'stockroom.css', content: DOCS_THEME_CSS }],
      js: [{ filename: 'stockroom-theme.js', content: DOCS_THEME_JS }],
    },
  });
};

/** Registers the reference under the /api prefix `api` carries. */
export async function apiDocs(api: FastifyInstance): Promise<void> {
  await api.register(docsPages);
}
