// The alerts feature's routed screen and the notifier every signed-in screen mounts.
export { AlertsPage } from './components/alerts-page';
