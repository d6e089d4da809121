// The settings feature's routed screen.
export { SettingsPage } from './components/settings-page';
