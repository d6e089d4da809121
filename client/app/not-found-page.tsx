// The 404 page for any path the router does not know.
import { Link } from 'react-router-dom';
import { Icon } from '../components/icons';

export function NotFoundPage() {
  return (
    <main className="standalone-page">
      <section className="state-panel" aria-labelledby="not-found-title">
        <div className="state-panel-icon">
          <Icon name="compass" size={28} />
        </div>
        <p className="state-panel-code">404</p>
        <h1 id="not-found-title">Page Not Found</h1>
        <p>The page you&apos;re looking for doesn&apos;t exist or has moved.</p>
        <Link className="btn btn-primary" to="/dashboard">
          Back to Dashboard
        </Link>
      </section>
    </main>
  );
}
