// The Dashboard (/dashboard): stat cards, revenue, the 30-day stock value chart, top
// sellers, near expiry, recent activity and inventory health. Every figure comes from
// GET /api/dashboard and follows pushed events; a failed load shows the red box with Retry.
// A barcode scanned here (a hardware scanner typing anywhere) opens that item.
import { useActorRef, useSelector } from '@xstate/react';
import { Link, Navigate } from 'react-router-dom';
import { ErrorBox } from '../../../components/error-box';
import { Icon } from '../../../components/icons';
import { TruckLoader } from '../../../components/truck-loader';
import { dashboardMachine } from '../dashboard.machine';
import { HealthCard } from './health-card';
import { NearExpiryCard } from './near-expiry-card';
import { RecentActivityCard } from './recent-activity-card';
import { RevenueCard } from './revenue-card';
import { StatCards } from './stat-cards';
import { LowStockBySite } from './low-stock-by-site';
import { StockValueCard } from './stock-value-card';
import { TopSellingCard } from './top-selling-card';
import '../dashboard.css';
import { useDeferredValue, useEffect, useState } from 'react';
import type { DashboardSummary } from '../../../../shared/dashboard';
import { api } from '../../../lib/api-client';
import { AsOfBanner, AsOfControl, useAsOf } from '../../../components/as-of';
import { useDocumentWedge } from '../../../lib/use-keyboard-wedge';
import { useStoreMoney } from '../../../lib/store-money';
import { useSession } from '../../../lib/session-context';

/** The dashboard as it was at a moment (?asOf=): the same cards, read-only. */
function AsOfDashboard({ asOf }: { asOf: string }) {
  const [data, setData] = useState<DashboardSummary | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api
      .get<DashboardSummary>(`/dashboard?asOf=${encodeURIComponent(asOf)}`)
      .then(setData, (e: unknown) => setError(e instanceof Error ? e.message : String(e)));
  }, [asOf]);
  return (
    <div className="page dashboard">
      <AsOfBanner asOf={asOf} />
      <AsOfControl />
      <h1 className="page-title">Dashboard</h1>
      {error ? <ErrorBox title="Failed to load the dashboard" message={error} /> : null}
      {!data && !error ? <TruckLoader label="Loading dashboard..." fullScreen={false} /> : null}
      {data ? <DashboardCards data={data} /> : null}
    </div>
  );
}

function DashboardCards({ data }: { data: DashboardSummary }) {
  // The server's answer says what its money is in; a copy saved before it did, what this device last heard.
  const known = useStoreMoney();
  const money = data.money ?? known;
  return (
    <>
      <StatCards totals={data.totals} money={money} lowStockBySite={data.lowStockBySite} />
      {data.lowStockBySite ? <LowStockBySite sites={data.lowStockBySite} /> : null}
      <div className="dash-grid">
        <RevenueCard revenue={data.revenue} money={money} />
        <StockValueCard points={data.stockValue} money={money} />
        <TopSellingCard items={data.topSelling} />
        <NearExpiryCard items={data.nearExpiry} />
        <HealthCard health={data.health} items={data.totals.items} />
        <RecentActivityCard entries={data.recentActivity} />
      </div>
    </>
  );
}

export function DashboardPage() {
  // The dashboard's figures are the whole store's: those whose role holds at some sites only
  // (roles per site) start on their sites' items instead; the server refuses them the figures.
  const { user } = useSession();
  if (user.siteRoles) return <Navigate to="/inventory" replace />;
  return <StoreDashboard />;
}

function StoreDashboard() {
  const asOf = useAsOf();
  // A hardware scanner's code typed with no field focused opens that item, as on the
  // category page: the dashboard is where a signed-in user starts.
  useDocumentWedge();
  if (asOf) return <AsOfDashboard key={asOf} asOf={asOf} />;
  return <LiveDashboard />;
}

function LiveDashboard() {
  const dashboard = useActorRef(dashboardMachine, { input: { params: null } });
  const failed = useSelector(dashboard, (s) => s.matches('error'));
  // Drawn at transition priority, in slices the browser can interleave with other work:
  // the cards and the chart in one synchronous render were one long task on a slow phone.
  const data = useDeferredValue(useSelector(dashboard, (s) => s.context.data));
  const error = useSelector(dashboard, (s) => s.context.error);

  return (
    <div className="page dashboard">
      <header className="page-header">
        <div>
          <h1 className="page-title">Dashboard</h1>
          <p className="page-subtitle">Your store at a glance, updated live</p>
        </div>
        <div className="page-actions">
          {/* The full-screen view for a stockroom screen; it opens in its own tab. */}
          <Link to="/display" target="_blank" rel="noopener" className="btn btn-secondary">
            <Icon name="eye" size={18} /> Wall display
          </Link>
        </div>
      </header>
      <AsOfControl />
      {failed ? (
        <ErrorBox
          title="Failed to load the dashboard"
          message={error ?? 'Failed to load the dashboard'}
          onRetry={() => dashboard.send({ type: 'RETRY' })}
        />
      ) : null}
      {!data && !failed ? <TruckLoader label="Loading dashboard..." fullScreen={false} /> : null}
      {data ? <DashboardCards data={data} /> : null}
    </div>
  );
}
