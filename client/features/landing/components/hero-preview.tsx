// The hero's product preview: a static, decorative picture of the inventory screen.
const ROWS = [
  { name: 'Wireless Headphones', sku: 'EL-2041', qty: 42, pct: 92, tone: 'ok' },
  { name: 'Organic Cotton Tee', sku: 'CL-1180', qty: 14, pct: 48, tone: 'warn' },
  { name: 'Cold Brew Coffee', sku: 'FB-0307', qty: 3, pct: 12, tone: 'low' },
] as const;

export function HeroPreview() {
  return (
    <div className="hero-preview" aria-hidden="true">
      <div className="hero-preview-bar">
        <span />
        <span />
        <span />
        <span className="hero-preview-live">● Live</span>
      </div>
      <div className="hero-preview-stats">
        <div>
          <small>Total items</small>
          <strong>1,284</strong>
        </div>
        <div>
          <small>Low stock</small>
          <strong className="tone-low">7</strong>
        </div>
        <div>
          <small>Value</small>
          <strong>$48,210</strong>
        </div>
      </div>
      <ul className="hero-preview-rows">
        {ROWS.map((row) => (
          <li key={row.sku}>
            <div className="hero-preview-thumb" />
            <div className="hero-preview-text">
              <strong>{row.name}</strong>
              <small>{row.sku}</small>
              <span className="hero-preview-meter">
                <span className={`tone-bg-${row.tone}`} style={{ width: `${row.pct}%` }} />
              </span>
            </div>
            <span className={`hero-preview-qty tone-${row.tone}`}>{row.qty}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
