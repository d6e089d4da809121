// The dashboard feature's routed screen, loaded as its own chunk.
export { DashboardPage } from './components/dashboard-page';
