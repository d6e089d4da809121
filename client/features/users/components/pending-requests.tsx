// Sign-ups that asked for Store Manager access, waiting for a manager: approve or reject.
import type { User } from '../../../../shared/accounts';
import { Icon } from '../../../components/icons';
import { formatDateTime } from '../../../lib/format';
import { UserAvatar } from './user-avatar';

export function PendingRequests({
  users,
  busy,
  onApprove,
  onReject,
}: {
  users: User[];
  busy: Set<string>;
  onApprove: (u: User) => void;
  onReject: (u: User) => void;
}) {
  return (
    <section className="card pending-requests" aria-labelledby="pending-title">
      <h2 id="pending-title" className="card-title">
        <Icon name="shield" size={18} /> Pending manager requests ({users.length})
      </h2>
      <ul className="pending-list">
        {users.map((user) => {
          const name = user.name || user.email || 'Unknown User';
          return (
            <li key={user.id} className="pending-row" data-testid="pending-request">
              <UserAvatar id={user.id} name={name} avatar={user.avatar} size={36} />
              <span className="pending-who">
                <span className="pending-name">{name}</span>
                <span className="pending-sub">
                  {user.email} · asked {formatDateTime(user.createdAt)}
                </span>
              </span>
              <span className="pending-actions">
                <button
                  type="button"
                  className="btn btn-sm btn-primary"
                  disabled={busy.has(user.id)}
                  onClick={() => onApprove(user)}
                  aria-label={`Approve ${name} as Store Manager`}
                >
                  Approve
                </button>
                <button
                  type="button"
                  className="btn btn-sm btn-secondary"
                  disabled={busy.has(user.id)}
                  onClick={() => onReject(user)}
                  aria-label={`Reject the manager request of ${name}`}
                >
                  Reject
                </button>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
