// The places feature's routed screen.
export { PlacesPage } from './components/places-page';
