// Where a site or location leads from its card: its labels (the labels page prints a site's
// locations, or a location and those inside it) and its activity (the log filtered to it).
// Screens meet through URLs, not imports: these are the addresses those pages read.
import type { Location, Site } from '../../../shared/sites';

const enc = encodeURIComponent;

export const labelsOf = (site: Site, location?: Location) =>
  location ? `/inventory/labels?location=${enc(location.id)}` : `/inventory/labels?site=${enc(site.id)}`;

export const activityOf = (site: Site, location?: Location) =>
  `/activity?siteId=${enc(site.id)}${location ? `&locationId=${enc(location.id)}` : ''}`;
