// The import calls, through the shared API client (token, idempotency keys, retries).
import type {
  CommitBody,
  CommitResult,
  DryRunReport,
  ImportCategoriesBody,
  ImportRowsBody,
} from '../../../shared/import';
import { api } from '../../lib/api-client';

export const importApi = {
  dryRun: (body: ImportRowsBody) => api.post<DryRunReport>('/inventory/import/dry-run', body),
  createCategories: (body: ImportCategoriesBody) =>
    api.post<{ categories: Array<{ id: string; name: string; created: boolean }> }>(
      '/inventory/import/categories',
      body,
    ),
  commit: (body: CommitBody) => api.post<CommitResult>('/inventory/import/commit', body),
};
