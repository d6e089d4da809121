// A site's locations as the tree their parent ids make, in reading order with their depth:
// what the Sites and locations page draws, and what every place picker lists.
import type { Location } from '../../shared/sites';

export interface TreeRow {
  location: Location;
  depth: number;
}

const byName = (a: Location, b: Location) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id);

/**
 * The site's locations depth first, each under its parent, siblings by name. Without
 * `archived`, archived locations (and what is inside them) are left out. A location whose
 * parent is missing from the list shows at the top level, so nothing is lost from view.
 */
export function treeRows(locations: readonly Location[], siteId: string, archived = false): TreeRow[] {
  const here = locations.filter((l) => l.siteId === siteId && (archived || !l.archivedAt));
  const ids = new Set(here.map((l) => l.id));
  const children = new Map<string | null, Location[]>();
  for (const location of here) {
    const parent = location.parentId !== null && ids.has(location.parentId) ? location.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), location]);
  }
  const rows: TreeRow[] = [];
  const seen = new Set<string>();
  const walk = (parent: string | null, depth: number) => {
    for (const location of (children.get(parent) ?? []).sort(byName)) {
      if (seen.has(location.id)) continue;
      seen.add(location.id);
      rows.push({ location, depth });
      walk(location.id, depth + 1);
    }
  };
  walk(null, 0);
  return rows;
}

/** The location and every location below it. */
export function subtreeIds(locations: readonly Location[], id: string): Set<string> {
  const found = new Set([id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const location of locations) {
      if (location.parentId !== null && found.has(location.parentId) && !found.has(location.id)) {
        found.add(location.id);
        grew = true;
      }
    }
  }
  return found;
}

/** Names from the site's top level down to the location: "Back room › Shelf 2". */
export function pathText(locations: readonly Location[], id: string): string {
  const byId = new Map(locations.map((l) => [l.id, l]));
  const names: string[] = [];
  for (let at = byId.get(id); at && names.length < 64; at = at.parentId ? byId.get(at.parentId) : undefined) {
    names.unshift(at.name);
  }
  return names.join(' › ');
}
