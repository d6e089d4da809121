// Whether two descriptions of what a user may do agree: the same role and the same
// permissions in any order. Kept apart from the watch so it can be tested without a session.
export interface Grant {
  role: string;
  permissions: readonly string[];
}

export function sameGrant(a: Grant, b: Grant): boolean {
  return a.role === b.role && a.permissions.length === b.permissions.length && a.permissions.every((p) => b.permissions.includes(p));
}
