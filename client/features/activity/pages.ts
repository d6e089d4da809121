// The activity feature's routed screen.
export { ActivityPage } from './components/activity-page';
export type { AuthorizedFetch } from './csv-export';
