// "Update available - Reload": shown when a new build's service worker is waiting. The app
// never swaps itself under the user; Reload activates the new version and reloads the page.
import { useUpdateReady } from './service-worker';
import './offline.css';

export function UpdateBanner() {
  const reload = useUpdateReady();
  if (!reload) return null;
  return (
    <div className="update-banner" role="status">
      <span>Update available</span>
      <button type="button" className="btn btn-sm btn-primary" onClick={reload}>
        Reload
      </button>
    </div>
  );
}
