// A location with the locations inside it (a shelf's bins, and theirs): what a filter by a
// location covers in the item lists, their exports and the list as of a moment. The tree is
// read as it is now; archived locations inside count too (they held stock before, and keep
// their rows at 0).
import { sql, type RawBuilder } from 'kysely';

/**
 * A select of the ids (`id`) of the location and of every location below it. `union`, not
 * `union all`: a cycle (which the site's lock keeps out) would end instead of looping.
 */
export const locationsInside = (locationId: string): RawBuilder<unknown> => sql`(with recursive inside (id) as (
    select id from locations where id = ${locationId}::uuid
    union
    select l.id from locations l join inside p on l.parent_id = p.id
  ) select id from inside)`;
