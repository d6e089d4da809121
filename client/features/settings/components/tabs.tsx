// Tabs as the ARIA pattern has them: a tablist of buttons (arrow keys, Home and End move
// between them), one tabpanel showing.
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabSpec<K extends string> {
  key: K;
  label: string;
}

export function Tabs<K extends string>({
  tabs,
  current,
  onSelect,
  label,
  children,
}: {
  tabs: TabSpec<K>[];
  current: K;
  onSelect: (key: K) => void;
  label: string;
  children: ReactNode;
}) {
  const base = useId();
  const refs = useRef<Record<string, HTMLButtonElement | null>>({});
  const move = (event: KeyboardEvent, index: number) => {
    const last = tabs.length - 1;
    const next = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    const tab = tabs[next]!;
    onSelect(tab.key);
    refs.current[tab.key]?.focus();
  };
  return (
    <div className="tabs">
      <div role="tablist" aria-label={label} className="tab-list">
        {tabs.map((tab, index) => (
          <button
            key={tab.key}
            ref={(el) => {
              refs.current[tab.key] = el;
            }}
            type="button"
            role="tab"
            id={`${base}-tab-${tab.key}`}
            aria-selected={tab.key === current}
            aria-controls={`${base}-panel`}
            tabIndex={tab.key === current ? 0 : -1}
            className={tab.key === current ? 'tab active' : 'tab'}
            onClick={() => onSelect(tab.key)}
            onKeyDown={(e) => move(e, index)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${current}`} className="tab-panel card">
        {children}
      </div>
    </div>
  );
}
