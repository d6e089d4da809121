// The loading screen of spec section 1: a small truck driving along a road. The road's
// dashes and the wheels move; with reduced motion only the label remains animated-free.
export function TruckLoader({ label = 'Loading...', fullScreen = true }: { label?: string; fullScreen?: boolean }) {
  return (
    <div className={fullScreen ? 'truck-loader truck-loader-full' : 'truck-loader'} role="status" aria-live="polite">
      <svg className="truck-svg" viewBox="0 0 160 80" width="160" height="80" aria-hidden="true">
        <g className="truck-body">
          <rect x="34" y="18" width="62" height="36" rx="4" className="truck-cargo" />
          <path d="M96 28h18l12 14v12H96z" className="truck-cab" />
          <path d="M101 32h11l8 9h-19z" className="truck-window" />
          <rect x="40" y="24" width="22" height="4" rx="2" className="truck-stripe" />
        </g>
        <g className="truck-wheel" style={{ transformOrigin: '52px 56px' }}>
          <circle cx="52" cy="56" r="8" className="truck-tyre" />
          <circle cx="52" cy="56" r="3.2" className="truck-hub" />
          <rect x="51" y="49.5" width="2" height="3" rx="1" className="truck-notch" />
        </g>
        <g className="truck-wheel" style={{ transformOrigin: '110px 56px' }}>
          <circle cx="110" cy="56" r="8" className="truck-tyre" />
          <circle cx="110" cy="56" r="3.2" className="truck-hub" />
          <rect x="109" y="49.5" width="2" height="3" rx="1" className="truck-notch" />
        </g>
        <line x1="0" y1="68" x2="160" y2="68" className="truck-road" />
        <line x1="0" y1="75" x2="160" y2="75" className="truck-road-dashes" />
        <g className="truck-speed">
          <line x1="12" y1="30" x2="26" y2="30" />
          <line x1="6" y1="40" x2="24" y2="40" />
          <line x1="14" y1="50" x2="26" y2="50" />
        </g>
      </svg>
      <span className="truck-label">{label}</span>
    </div>
  );
}
