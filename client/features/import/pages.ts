// The import feature's page, loaded on its own (papaparse stays out of other chunks).
export { ImportPage } from './components/import-page';
