// Undo, revert, as-of and compare calls, used by several features: shared UI code
// lives here so features never import each other.
import type {
  ChangesReport,
  EventCountsByDay,
  RevertBody,
  RevertPlan,
  RevertResult,
} from '../../shared/inventory-history';
import { api } from '../lib/api-client';

const enc = encodeURIComponent;

export const historyApi = {
  plan: (eventId: string) => api.get<RevertPlan>(`/events/${enc(eventId)}/revert`),
  revert: (eventId: string, body: RevertBody) => api.post<RevertResult>(`/events/${enc(eventId)}/revert`, body),
  changeAt: (streamId: string, version: number) =>
    api.get<{ eventId: string; type: string }>(`/history/change-at?streamId=${enc(streamId)}&version=${version}`),
  changeOfWrite: (key: string) =>
    api.get<{ eventId: string; type: string }>(`/history/change-of-write?key=${enc(key)}`),
  counts: () => api.get<EventCountsByDay>('/history/counts'),
  changes: (from: string, to?: string) =>
    api.get<ChangesReport>(`/changes?from=${enc(from)}${to ? `&to=${enc(to)}` : ''}`),
};
