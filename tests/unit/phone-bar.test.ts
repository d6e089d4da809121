// The phone's bottom bar and More sheet between them hold every destination a role has,
// each once: four on the bar and More when there are more than five, else all on the bar.
import { describe, expect, it } from 'vitest';
import { NAV_ENTRIES, PHONE_BAR_SIZE, phoneBar, visibleEntries } from '../../client/app/shell/nav-entries.js';
import { BUILT_IN_ROLES } from '../../shared/permissions.js';

const labels = (entries: { label: string }[]) => entries.map((e) => e.label);

describe('phone bar', () => {
  it('puts every destination of every built-in role on the bar or under More, once', () => {
    for (const role of Object.values(BUILT_IN_ROLES)) {
      const entries = visibleEntries(role.permissions);
      const { bar, more } = phoneBar(entries);
      expect([...labels(bar), ...labels(more)].sort(), role.id).toEqual(labels(entries).sort());
      // Five places on the bar: five entries, or four and More.
      expect(bar.length + (more.length > 0 ? 1 : 0), role.id).toBeLessThanOrEqual(PHONE_BAR_SIZE + 1);
    }
  });

  it("gives a manager's phone the counts, items and alerts first, and the rest under More in the dock's order", () => {
    const { bar, more } = phoneBar(NAV_ENTRIES);
    expect(labels(bar)).toEqual(['Dashboard', 'Items', 'Count', 'Alerts']);
    expect(labels(more)).toEqual(['Transfers', 'Users', 'Logs', 'Roles', 'Setup']);
  });

  it('keeps a role with five destinations all on the bar, with no More', () => {
    const guest = phoneBar(visibleEntries(BUILT_IN_ROLES.guest.permissions));
    expect(guest.more).toEqual([]);
    expect(guest.bar).toHaveLength(visibleEntries(BUILT_IN_ROLES.guest.permissions).length);
  });
});
