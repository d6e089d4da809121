// The profile feature's routed screen.
export { ProfilePage, type ProfilePageProps } from './components/profile-page';
