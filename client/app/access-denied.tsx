// What a user without the permission sees on /users and /roles: said in place, so the
// address they opened stays in the bar.
import { Link } from 'react-router-dom';
import { Icon } from '../components/icons';

export function AccessDenied() {
  return (
    <section className="state-panel" aria-labelledby="access-denied-title">
      <div className="state-panel-icon state-panel-icon-danger">
        <Icon name="lock" size={28} />
      </div>
      <h1 id="access-denied-title">Access Denied</h1>
      <p>You don&apos;t have permission to view this page.</p>
      <Link className="btn btn-secondary" to="/dashboard">
        Back to Dashboard
      </Link>
    </section>
  );
}
