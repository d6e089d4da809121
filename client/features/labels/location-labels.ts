// Labels for shelves and bins: which locations (a site's, or a location and those inside it,
// from the URL: ?site={id} or ?location={id}), what each label says (name, code, site, the
// path of names down to it) and its codes: a QR code and a Code 128 of the same text,
// locationLabelText (shared/sites.ts): the label barcode, else the code. A phone's camera
// reads the QR code; a hand scanner the bars. Archived locations are left out.
import { locationLabelText, type Location, type Site } from '../../../shared/sites';
import { api } from '../../lib/api-client';
import { pathText, subtreeIds, treeRows } from '../../lib/place-tree';

export type LocationSource = { kind: 'site'; siteId: string } | { kind: 'location'; locationId: string };

export interface LocationLabel {
  id: string;
  name: string;
  code: string;
  siteName: string;
  siteCode: string;
  /** Names from the site's top level down to the location's parent ("Back room › Shelf 2"), empty at the top. */
  within: string;
  /** What the codes encode. */
  text: string;
  depth: number;
}

export interface LocationLabels {
  title: string;
  labels: LocationLabel[];
}

export interface LocationCodes {
  qrSvg: string;
  linearSvg: string;
}

/** Reads the URL's query: `?site={id}` or `?location={id}`; null when it names neither. */
export function locationSourceFrom(search: URLSearchParams): LocationSource | null {
  const location = search.get('location');
  if (location) return { kind: 'location', locationId: location };
  const site = search.get('site');
  return site ? { kind: 'site', siteId: site } : null;
}

/** The labels of the source's locations, in the site's tree order. */
export function labelsOf(
  source: LocationSource,
  sites: readonly Site[],
  locations: readonly Location[],
): LocationLabels {
  const location = source.kind === 'location' ? locations.find((l) => l.id === source.locationId) : undefined;
  const siteId = source.kind === 'site' ? source.siteId : location?.siteId;
  const site = sites.find((s) => s.id === siteId);
  if (!site || (source.kind === 'location' && !location)) {
    throw new Error(source.kind === 'site' ? 'Site not found' : 'Location not found');
  }
  const inside = location ? subtreeIds(locations, location.id) : null;
  const labels = treeRows(locations, site.id)
    .filter((row) => !inside || inside.has(row.location.id))
    .map(({ location: l, depth }): LocationLabel => ({
      id: l.id,
      name: l.name,
      code: l.code,
      siteName: site.name,
      siteCode: site.code,
      within: l.parentId ? pathText(locations, l.parentId) : '',
      text: locationLabelText(l),
      depth,
    }));
  return { title: location ? location.name : site.name, labels };
}

export async function loadLocationLabels(source: LocationSource): Promise<LocationLabels> {
  const [sites, locations] = await Promise.all([api.get<Site[]>('/sites'), api.get<Location[]>('/locations')]);
  return labelsOf(source, sites, locations);
}

/** SVG as a data: URL (CSP allows data: images). */
const svgUrl = (svg: string) => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;

export async function drawLocationCodes(labels: readonly LocationLabel[]): Promise<Record<string, LocationCodes>> {
  const { qrcode, code128, drawingSVG } = await import('bwip-js/browser');
  const codes: Record<string, LocationCodes> = {};
  for (const label of labels) {
    // Quiet zones drawn in, as on item labels: a label's edge may be right beside the code.
    const qr = qrcode({ bcid: 'qrcode', text: label.text, paddingwidth: 2, paddingheight: 2 }, drawingSVG());
    const bars = code128({ bcid: 'code128', text: label.text, height: 10, paddingwidth: 10 }, drawingSVG());
    codes[label.id] = { qrSvg: svgUrl(qr), linearSvg: svgUrl(bars) };
  }
  return codes;
}
