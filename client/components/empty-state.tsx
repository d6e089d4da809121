// A friendly "nothing here" panel with an icon, a title, a line of text and actions.
import type { ReactNode } from 'react';
import { Icon, type IconName } from './icons';

export function EmptyState({
  icon = 'box',
  title,
  text,
  children,
}: {
  icon?: IconName;
  title: string;
  text: string;
  children?: ReactNode;
}) {
  return (
    <section className="state-panel card empty-state">
      <div className="state-panel-icon">
        <Icon name={icon} size={28} />
      </div>
      <h2>{title}</h2>
      <p>{text}</p>
      {children ? <div className="state-panel-actions">{children}</div> : null}
    </section>
  );
}
