// The header's offline badge: "N changes waiting" while changes are kept on this device,
// "N conflicts" when the server refused some on replay. Both lead to the Outbox page.
import { Link } from 'react-router-dom';
import { Icon } from '../components/icons';
import { useOutbox } from './use-outbox';
import './offline.css';

/** "2 changes waiting"; on a phone only the number shows (the words stay for screen readers). */
function Count({ n, one, many }: { n: number; one: string; many: string }) {
  return (
    <>
      <span className="outbox-badge-count">{n}</span>
      <span className="words-wide-only"> {n === 1 ? one : many}</span>
    </>
  );
}

export function OutboxBadge() {
  const { waiting, conflicts } = useOutbox();
  return (
    <>
      {waiting.length > 0 ? (
        <Link to="/outbox" className="outbox-badge" data-testid="outbox-badge">
          <Icon name="clock" size={14} />
          <Count n={waiting.length} one="change waiting" many="changes waiting" />
        </Link>
      ) : null}
      {conflicts.length > 0 ? (
        <Link to="/outbox" className="outbox-badge outbox-badge-conflict" data-testid="conflicts-badge">
          <Icon name="alert" size={14} />
          <Count n={conflicts.length} one="conflict" many="conflicts" />
        </Link>
      ) : null}
    </>
  );
}
