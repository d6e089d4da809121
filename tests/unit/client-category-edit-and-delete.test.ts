// The Delete and Edit Category machines and moving a category's items: an empty category is
// deleted after a confirmation, one with items has them moved out first, a failure keeps
// the dialog open with the reason, and a save that lost a race builds on the newer version.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Category, CategoryItemsPage, Item } from '../../shared/inventory.js';
import { ApiError } from '../../client/lib/api-client.js';

const api = vi.hoisted(() => ({ categoryItems: vi.fn(), updateItem: vi.fn() }));
vi.mock('../../client/features/inventory/api', () => ({ inventoryApi: api, PAGE_SIZE: 12 }));

const { deleteCategoryMachine } = await import('../../client/features/inventory/delete-category.machine.js');
const { editCategoryMachine } = await import('../../client/features/inventory/edit-category.machine.js');
const { moveCategoryItems } = await import('../../client/features/inventory/move-category-items.js');

const category = (id: string, name: string, itemCount: number): Category => ({
  id,
  name,
  description: '',
  itemCount,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  version: 1,
});

function startDelete(
  categories: Category[],
  options: { remove?: () => Promise<void>; moveAndDelete?: () => Promise<number> } = {},
) {
  const removed = vi.fn(options.remove ?? (async () => undefined));
  const moved = vi.fn(options.moveAndDelete ?? (async () => 0));
  const notify = vi.fn();
  const actor = createActor(
    deleteCategoryMachine.provide({
      actors: {
        loadCategories: fromPromise(async () => categories),
        deleteCategory: fromPromise(() => removed()),
        moveAndDelete: fromPromise(() => moved()),
      },
      actions: { notifyFailure: notify },
    }),
    { input: { category: categories[0]! } },
  );
  actor.start();
  return { actor, removed, moved, notify };
}

describe('delete category machine', () => {
  it('asks for confirmation for an empty category, and deletes only after the answer', async () => {
    const { actor, removed } = startDelete([category('a', 'Seasonal', 0), category('b', 'Drinks', 3)]);
    await waitFor(actor, (s) => s.matches('confirming'));
    expect(removed).not.toHaveBeenCalled();
    actor.send({ type: 'CONFIRM' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(removed).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().output).toEqual({ deleted: true, moved: 0, movedTo: null });
  });

  it('closes without deleting on Cancel', async () => {
    const { actor, removed } = startDelete([category('a', 'Seasonal', 0)]);
    await waitFor(actor, (s) => s.matches('confirming'));
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().output).toEqual({ deleted: false, moved: 0, movedTo: null });
    expect(removed).not.toHaveBeenCalled();
  });

  it('offers the move for a category with items, and needs a target before moving', async () => {
    const { actor, moved, removed } = startDelete([category('a', 'Snacks', 2), category('b', 'Drinks', 1)], {
      moveAndDelete: async () => 2,
    });
    await waitFor(actor, (s) => s.matches('notEmpty'));
    actor.send({ type: 'CONFIRM' });
    actor.send({ type: 'MOVE_AND_DELETE' });
    expect(actor.getSnapshot().matches('notEmpty')).toBe(true);
    actor.send({ type: 'CHOOSE_TARGET', categoryId: 'a' }); // not itself
    actor.send({ type: 'MOVE_AND_DELETE' });
    expect(actor.getSnapshot().matches('notEmpty')).toBe(true);
    actor.send({ type: 'CHOOSE_TARGET', categoryId: 'b' });
    actor.send({ type: 'MOVE_AND_DELETE' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(moved).toHaveBeenCalledTimes(1);
    expect(removed).not.toHaveBeenCalled();
    expect(actor.getSnapshot().output).toMatchObject({ deleted: true, moved: 2, movedTo: { id: 'b', name: 'Drinks' } });
  });

  it("goes to the move when the server says 'Category is not empty' (an item arrived meanwhile)", async () => {
    let reads = 0;
    const categories = [category('a', 'Seasonal', 0), category('b', 'Drinks', 1)];
    const actor = createActor(
      deleteCategoryMachine.provide({
        actors: {
          loadCategories: fromPromise(async () =>
            reads++ === 0 ? categories : [{ ...categories[0]!, itemCount: 1 }, categories[1]!],
          ),
          deleteCategory: fromPromise<void, string>(async () => {
            throw new ApiError('Category is not empty', 409, { error: 'Category is not empty' });
          }),
        },
      }),
      { input: { category: categories[0]! } },
    );
    actor.start();
    await waitFor(actor, (s) => s.matches('confirming'));
    actor.send({ type: 'CONFIRM' });
    await waitFor(actor, (s) => s.matches('notEmpty'));
    expect(actor.getSnapshot().context.category.itemCount).toBe(1);
  });

  it("keeps the dialog with the reason and raises 'Failed to delete category' on another failure", async () => {
    const { actor, notify } = startDelete([category('a', 'Seasonal', 0)], {
      remove: async () => {
        throw new ApiError("You don't have permission to delete records", 403);
      },
    });
    await waitFor(actor, (s) => s.matches('confirming'));
    actor.send({ type: 'CONFIRM' });
    await waitFor(actor, (s) => s.matches('confirming') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe(
      "Failed to delete category: You don't have permission to delete records",
    );
    expect(notify).toHaveBeenCalledTimes(1);
  });

  it('treats a category someone else already deleted as deleted, without a request', async () => {
    const removed = vi.fn(async (): Promise<void> => undefined);
    const actor = createActor(
      deleteCategoryMachine.provide({
        actors: {
          loadCategories: fromPromise(async () => [category('b', 'Other', 0)]),
          deleteCategory: fromPromise<void, string>(() => removed()),
        },
      }),
      { input: { category: category('a', 'Gone', 0) } },
    );
    actor.start();
    await waitFor(actor, (s) => s.status === 'done');
    expect(actor.getSnapshot().output?.deleted).toBe(true);
    expect(removed).not.toHaveBeenCalled();
  });
});

describe('edit category machine', () => {
  const drinks = category('a', 'Drinks', 2);
  function startEdit(update: (input: { name: string; description: string; version: number }) => Promise<Category>) {
    const updateCategory = vi.fn(update);
    const notify = vi.fn();
    const actor = createActor(
      editCategoryMachine.provide({
        actors: { updateCategory: fromPromise(({ input }) => updateCategory(input as never)) },
        actions: { notifyFailure: notify },
      }),
      { input: { category: drinks } },
    );
    actor.start();
    return { actor, updateCategory, notify };
  }

  it('closes without a request when nothing changed, and never saves a blank name', () => {
    const { actor, updateCategory } = startEdit(async () => drinks);
    actor.send({ type: 'CHANGE_NAME', value: '   ' });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().matches('editing')).toBe(true);
    actor.send({ type: 'CHANGE_NAME', value: ' Drinks ' });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().output).toEqual({ category: null });
    expect(updateCategory).not.toHaveBeenCalled();
  });

  it('saves the trimmed name and description with the version it opened with', async () => {
    const { actor, updateCategory } = startEdit(async (input) => ({
      ...drinks,
      name: input.name,
      description: input.description,
      version: 2,
    }));
    actor.send({ type: 'CHANGE_NAME', value: ' Cold Drinks ' });
    actor.send({ type: 'CHANGE_DESCRIPTION', value: ' Chilled ' });
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(updateCategory).toHaveBeenCalledWith({ id: 'a', version: 1, name: 'Cold Drinks', description: 'Chilled' });
    expect(actor.getSnapshot().output?.category).toMatchObject({ name: 'Cold Drinks', description: 'Chilled' });
  });

  it('says when someone else changed it first, and the next Save builds on their version', async () => {
    const theirs = { ...drinks, name: 'Beverages', version: 4 };
    let calls = 0;
    const { actor, updateCategory, notify } = startEdit(async (input) => {
      if (calls++ === 0)
        throw new ApiError('This category was changed by someone else', 409, { error: 'x', current: theirs });
      return { ...theirs, name: input.name, version: 5 };
    });
    actor.send({ type: 'CHANGE_NAME', value: 'Cold Drinks' });
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toContain('it is now "Beverages"');
    expect(actor.getSnapshot().context.name).toBe('Cold Drinks');
    expect(notify).toHaveBeenCalledTimes(1);
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(updateCategory.mock.calls[1]![0]).toMatchObject({ version: 4, name: 'Cold Drinks' });
  });

  it("shows the server's reason with 'Failed to update category'", async () => {
    const { actor, notify } = startEdit(async () => {
      throw new ApiError('Category already exists', 409, { error: 'Category already exists' });
    });
    actor.send({ type: 'CHANGE_NAME', value: 'Snacks' });
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Failed to update category: Category already exists');
    expect(notify).toHaveBeenCalledTimes(1);
  });
});

describe('moving a category’s items', () => {
  const item = (id: string, version = 1) => ({ id, version }) as Item;
  const page = (items: Item[]): CategoryItemsPage => ({
    items,
    total: items.length,
    page: 1,
    pageSize: 100,
    totalPages: 1,
  });
  beforeEach(() => {
    api.categoryItems.mockReset();
    api.updateItem.mockReset();
  });

  it('moves every item with the version it read, rereading one that changed meanwhile', async () => {
    api.categoryItems
      .mockResolvedValueOnce(page([item('i1'), item('i2')]))
      .mockResolvedValueOnce(page([item('i2', 3)]))
      .mockResolvedValueOnce(page([]));
    api.updateItem.mockImplementation(async (id: string, _body: unknown, version: number) => {
      if (id === 'i2' && version === 1) throw new ApiError('changed', 409);
      return item(id);
    });
    expect(await moveCategoryItems('from', 'to')).toBe(2);
    expect(api.updateItem.mock.calls).toEqual([
      ['i1', { category_id: 'to' }, 1],
      ['i2', { category_id: 'to' }, 1],
      ['i2', { category_id: 'to' }, 3],
    ]);
  });

  it('stops at the first refusal that a reread cannot fix', async () => {
    api.categoryItems.mockResolvedValue(page([item('i1')]));
    api.updateItem.mockRejectedValue(new ApiError("You don't have permission to manage inventory", 403));
    await expect(moveCategoryItems('from', 'to')).rejects.toThrow("You don't have permission to manage inventory");
  });
});
