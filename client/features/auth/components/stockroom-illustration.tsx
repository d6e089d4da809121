// The sign-up illustration: shelves of boxes with a live stock chart, drawn in SVG.
export function StockroomIllustration() {
  return (
    <svg className="auth-illustration" viewBox="0 0 320 220" role="presentation" aria-hidden="true">
      <rect x="20" y="20" width="280" height="180" rx="18" className="ill-panel" />
      <rect x="44" y="62" width="150" height="6" rx="3" className="ill-shelf" />
      <rect x="44" y="122" width="150" height="6" rx="3" className="ill-shelf" />
      <rect x="44" y="182" width="150" height="6" rx="3" className="ill-shelf" />
      <rect x="52" y="30" width="34" height="32" rx="4" className="ill-box ill-box-a" />
      <rect x="92" y="38" width="26" height="24" rx="4" className="ill-box ill-box-b" />
      <rect x="124" y="26" width="40" height="36" rx="4" className="ill-box ill-box-c" />
      <rect x="56" y="92" width="28" height="30" rx="4" className="ill-box ill-box-c" />
      <rect x="90" y="86" width="44" height="36" rx="4" className="ill-box ill-box-a" />
      <rect x="140" y="98" width="24" height="24" rx="4" className="ill-box ill-box-b" />
      <rect x="52" y="150" width="36" height="32" rx="4" className="ill-box ill-box-b" />
      <rect x="96" y="156" width="30" height="26" rx="4" className="ill-box ill-box-c" />
      <rect x="134" y="146" width="38" height="36" rx="4" className="ill-box ill-box-a" />
      <rect x="210" y="40" width="74" height="120" rx="12" className="ill-card" />
      <polyline points="220,130 236,112 250,120 264,92 276,98" className="ill-line" />
      <circle cx="276" cy="98" r="4" className="ill-dot" />
      <rect x="220" y="54" width="40" height="6" rx="3" className="ill-text" />
      <rect x="220" y="66" width="28" height="6" rx="3" className="ill-text ill-text-faint" />
      <circle cx="264" cy="176" r="12" className="ill-live" />
      <circle cx="264" cy="176" r="5" className="ill-live-core" />
    </svg>
  );
}
