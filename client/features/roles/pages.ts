// The roles feature's routed screen.
export { RolesPage } from './components/roles-page';
