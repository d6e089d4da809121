// The truck loader's drawing as HTML: one source for the loading screen that index.html
// carries (vite.config.ts puts it there, so a phone shows it as soon as the page and its
// stylesheet arrive, before any script) and for the TruckLoader component. The road's
// dashes, the wheels, the body's bump and the speed lines move; with reduced motion nothing
// does (base.css). Each moving part is its own outer <svg> (or a div) animated by transform
// and opacity only, so the compositor runs the animation: animating shapes inside one SVG
// repainted it on the main thread every frame, which on a slow phone held back the page
// the loader was waiting for.
const VIEW = { width: 160, height: 80 };
const pct = (value: number, of: number) => `${(value / of) * 100}%`;

/** A part of the drawing in its own layer, placed by its box in the 160 x 80 scene. */
function part(className: string, x: number, y: number, width: number, height: number, inner: string): string {
  const style = `left:${pct(x, VIEW.width)};top:${pct(y, VIEW.height)};width:${pct(width, VIEW.width)};height:${pct(height, VIEW.height)}`;
  return `<svg class="truck-part ${className}" viewBox="${x} ${y} ${width} ${height}" style="${style}" aria-hidden="true">${inner}</svg>`;
}

const wheel = (cx: number) =>
  part(
    'truck-wheel',
    cx - 9,
    47,
    18,
    18,
    `<circle cx="${cx}" cy="56" r="8" class="truck-tyre"/><circle cx="${cx}" cy="56" r="3.2" class="truck-hub"/><rect x="${cx - 1}" y="49.5" width="2" height="3" rx="1" class="truck-notch"/>`,
  );

/** The scene's contents (inside .truck-scene). */
export const TRUCK_SCENE_HTML = [
  '<svg class="truck-part" viewBox="0 0 160 80" style="inset:0;width:100%;height:100%"><line x1="0" y1="68" x2="160" y2="68" class="truck-road"/></svg>',
  '<div class="truck-road-dashes"></div>',
  part(
    'truck-body',
    30,
    14,
    100,
    44,
    '<rect x="34" y="18" width="62" height="36" rx="4" class="truck-cargo"/><path d="M96 28h18l12 14v12H96z" class="truck-cab"/><path d="M101 32h11l8 9h-19z" class="truck-window"/><rect x="40" y="24" width="22" height="4" rx="2" class="truck-stripe"/>',
  ),
  wheel(52),
  wheel(110),
  part(
    'truck-speed',
    4,
    28,
    24,
    24,
    '<line x1="12" y1="30" x2="26" y2="30"/><line x1="6" y1="40" x2="24" y2="40"/><line x1="14" y1="50" x2="26" y2="50"/>',
  ),
].join('');

/** The full-screen loading screen as index.html carries it, the same as <TruckLoader />. */
export const LOADING_SCREEN_HTML = `<div class="truck-loader truck-loader-full" role="status" aria-live="polite"><div class="truck-scene" aria-hidden="true">${TRUCK_SCENE_HTML}</div><span class="truck-label">Loading...</span></div>`;
