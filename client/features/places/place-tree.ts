// A site's locations as a tree: rows in reading order with their depth, the subtree below a
// location (where it cannot move), and a location's path of names. Kept in client/lib, where
// the place pickers of other screens (activity, as-of, labels) read the same tree.
export { pathText, subtreeIds, treeRows, type TreeRow } from '../../lib/place-tree';
