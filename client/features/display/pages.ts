// The wall display's routed screen.
export { DisplayPage } from './components/display-page';
