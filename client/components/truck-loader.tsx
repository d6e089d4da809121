// The loading screen of spec section 1: a small truck driving along a road. The road's
// dashes, the wheels, the body's bump and the speed lines move; with reduced motion nothing
// does (base.css). Each moving part is its own outer <svg> (or a div) animated by transform
// and opacity only, so the compositor runs the animation: animating shapes inside one SVG
// repainted it on the main thread every frame, which on a slow phone held back the page
// the loader was waiting for.
const VIEW = { width: 160, height: 80 };

/** A part of the drawing in its own layer, placed by its box in the 160 x 80 scene. */
function Part({ className, x, y, width, height, children }: { className: string; x: number; y: number; width: number; height: number; children: React.ReactNode }) {
  return (
    <svg
      className={`truck-part ${className}`}
      viewBox={`${x} ${y} ${width} ${height}`}
      style={{ left: `${(x / VIEW.width) * 100}%`, top: `${(y / VIEW.height) * 100}%`, width: `${(width / VIEW.width) * 100}%`, height: `${(height / VIEW.height) * 100}%` }}
      aria-hidden="true"
    >
      {children}
    </svg>
  );
}

function Wheel({ cx }: { cx: number }) {
  return (
    <Part className="truck-wheel" x={cx - 9} y={47} width={18} height={18}>
      <circle cx={cx} cy="56" r="8" className="truck-tyre" />
      <circle cx={cx} cy="56" r="3.2" className="truck-hub" />
      <rect x={cx - 1} y="49.5" width="2" height="3" rx="1" className="truck-notch" />
    </Part>
  );
}

export function TruckLoader({ label = 'Loading...', fullScreen = true }: { label?: string; fullScreen?: boolean }) {
  return (
    <div className={fullScreen ? 'truck-loader truck-loader-full' : 'truck-loader'} role="status" aria-live="polite">
      <div className="truck-scene" aria-hidden="true">
        <svg className="truck-part" viewBox="0 0 160 80" style={{ inset: 0, width: '100%', height: '100%' }}>
          <line x1="0" y1="68" x2="160" y2="68" className="truck-road" />
        </svg>
        <div className="truck-road-dashes" />
        <Part className="truck-body" x={30} y={14} width={100} height={44}>
          <rect x="34" y="18" width="62" height="36" rx="4" className="truck-cargo" />
          <path d="M96 28h18l12 14v12H96z" className="truck-cab" />
          <path d="M101 32h11l8 9h-19z" className="truck-window" />
          <rect x="40" y="24" width="22" height="4" rx="2" className="truck-stripe" />
        </Part>
        <Wheel cx={52} />
        <Wheel cx={110} />
        <Part className="truck-speed" x={4} y={28} width={24} height={24}>
          <line x1="12" y1="30" x2="26" y2="30" />
          <line x1="6" y1="40" x2="24" y2="40" />
          <line x1="14" y1="50" x2="26" y2="50" />
        </Part>
      </div>
      <span className="truck-label">{label}</span>
    </div>
  );
}
