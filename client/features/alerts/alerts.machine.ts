// The Alerts screen's live data: the low-stock list with my dismissals, kept current by
// pushed events (alert-reducers.ts), and the dismiss and restore writes folded back in.
import { createLiveQueryMachine } from '../../lib/live-query.machine';
import { toast } from '../../lib/toasts';
import { alertsApi } from './api';
import {
  alertsConcern,
  applyAlertWrite,
  reduceAlerts,
  type AlertsData,
  type AlertsParams,
  type AlertWrite,
} from './alert-reducers';

export const alertsMachine = createLiveQueryMachine<AlertsData, AlertsParams, AlertWrite>({
  id: 'alerts',
  load: async () => ({ alerts: await alertsApi.list() }),
  reduce: reduceAlerts,
  concerns: alertsConcern,
  runWrite: (write) =>
    write.kind === 'dismiss'
      ? alertsApi.dismiss(write.itemId, write.siteId)
      : alertsApi.restore(write.itemId, write.siteId),
  applyWrite: applyAlertWrite,
  onWriteFailed: (write, message) => toast.error(`Could not ${write.kind} the alert for ${write.name}: ${message}`),
  loadErrorMessage: 'Failed to load alerts',
});
