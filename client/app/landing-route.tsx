// / shows the landing page, or sends a signed-in user to /dashboard. Only a browser that
// was signed in before loads the session (and Firebase) to check; first-time visitors
// download neither.
import { lazy, Suspense } from 'react';
import { LandingPage } from '../features/landing/components/landing-page';
import { wasSignedIn } from '../lib/auth-hint';
import { TruckLoader } from '../components/truck-loader';

const SignedInRedirect = lazy(() => import('./signed-in-redirect').then((m) => ({ default: m.SignedInRedirect })));

export function LandingRoute() {
  if (!wasSignedIn()) return <LandingPage />;
  return (
    <Suspense fallback={<TruckLoader />}>
      <SignedInRedirect fallback={<LandingPage />} />
    </Suspense>
  );
}
