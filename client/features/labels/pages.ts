// The labels feature's routed screen, loaded on its own (bwip-js loads later still, when
// the codes are drawn).
export { LabelsPage } from './components/labels-page';
