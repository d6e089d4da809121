// The users feature's routed screen.
export { UsersPage } from './components/users-page';
