// Category management shared by the Inventory page (a card's menu) and the Category page
// (its header): who may do what, the Edit and Delete dialogs, and their success toasts.
import { offerUndo } from '../../../components/undo';
import { editCategoryChange } from '../undo-labels';
import { useCallback, useState } from 'react';
import type { Category } from '../../../../shared/inventory';
import type { MenuAction } from '../../../components/action-menu';
import { useCan } from '../../../lib/session-context';
import { toast } from '../../../lib/toasts';
import type { DeleteCategoryOutput } from '../delete-category.machine';
import { DeleteCategoryDialog } from './delete-category-dialog';
import { EditCategoryModal } from './edit-category-modal';

type Open = { kind: 'edit' | 'delete'; category: Category } | null;

/** The permissions the server checks: PUT needs Manage inventory, DELETE needs Delete records. */
export function useCategoryAdmin(
  options: { onSaved?: (category: Category) => void; onDeleted?: (category: Category) => void } = {},
) {
  const canEdit = useCan('inventory:manage');
  const canDelete = useCan('records:delete');
  const [open, setOpen] = useState<Open>(null);
  const close = useCallback(() => setOpen(null), []);
  const { onSaved, onDeleted } = options;

  const saved = useCallback(
    (category: Category) => {
      offerUndo(`Category "${category.name}" updated`, editCategoryChange(category.name), {
        streamId: `category-${category.id}`,
        version: category.version,
      });
      setOpen(null);
      onSaved?.(category);
    },
    [onSaved],
  );
  const deleted = useCallback(
    (result: DeleteCategoryOutput & { name: string }) => {
      const target = open?.category;
      setOpen(null);
      toast.success(
        result.moved > 0 && result.movedTo
          ? `Moved ${result.moved} ${result.moved === 1 ? 'item' : 'items'} to "${result.movedTo.name}" and deleted "${result.name}"`
          : `Category "${result.name}" deleted`,
      );
      if (target) onDeleted?.(target);
    },
    [open, onDeleted],
  );

  const actionsFor = (category: Category): MenuAction[] => [
    ...(canEdit ? [{ label: 'Edit', icon: 'edit' as const, onSelect: () => setOpen({ kind: 'edit', category }) }] : []),
    ...(canDelete
      ? [
          {
            label: 'Delete',
            icon: 'trash' as const,
            danger: true,
            onSelect: () => setOpen({ kind: 'delete', category }),
          },
        ]
      : []),
  ];

  const dialogs =
    open?.kind === 'edit' ? (
      <EditCategoryModal category={open.category} onClose={close} onSaved={saved} />
    ) : open?.kind === 'delete' ? (
      <DeleteCategoryDialog category={open.category} canMoveItems={canEdit} onClose={close} onDeleted={deleted} />
    ) : null;

  return {
    canEdit,
    canDelete,
    actionsFor,
    edit: (category: Category) => setOpen({ kind: 'edit', category }),
    remove: (category: Category) => setOpen({ kind: 'delete', category }),
    dialogs,
  };
}
