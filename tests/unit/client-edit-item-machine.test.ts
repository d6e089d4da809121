// The Edit page machine: only changed fields are sent with the version loaded; a 409 with
// the current item becomes a conflict listing what changed, which the user resolves by
// reloading theirs or overwriting with mine; delete asks first.
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Category, Item, UpdateItemBody } from '../../shared/inventory.js';
import { ApiError } from '../../client/lib/api-client.js';
import { editItemMachine } from '../../client/features/inventory/edit-item.machine.js';

const base: Item = {
  id: 'i1',
  name: 'Cold Brew',
  description: '',
  sku: 'FB-1',
  category: 'Drinks',
  categoryId: 'c1',
  category_id: 'c1',
  quantity: 5,
  price: 4.5,
  threshold: 3,
  imageUrl: null,
  image_url: null,
  expiryDate: null,
  barcode: null,
  createdAt: '',
  updatedAt: '',
  version: 4,
};
const categories = [{ id: 'c1', name: 'Drinks' }] as Category[];

function start(
  update: (input: { body: UpdateItemBody; version: number }) => Promise<Item>,
  remove: () => Promise<void> = async () => undefined,
) {
  const updates = vi.fn(update);
  const removes = vi.fn(remove);
  const actor = createActor(
    editItemMachine.provide({
      actors: {
        load: fromPromise(async () => ({ item: base, categories })),
        update: fromPromise<Item | null, { id: string; body: UpdateItemBody; version: number; name: string }>(
          ({ input }) => updates(input),
        ),
        remove: fromPromise(() => removes()),
      },
    }),
    { input: { id: 'i1' } },
  );
  actor.start();
  return { actor, updates, removes };
}

describe('edit item machine', () => {
  it('saves only the changed fields with the version it loaded', async () => {
    const { actor, updates } = start(async ({ body }) => ({ ...base, ...body, version: 5 }) as Item);
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'CHANGE', field: 'price', value: '5.25' });
    actor.send({ type: 'SAVE' });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(updates).toHaveBeenCalledWith({ id: 'i1', body: { price: 5.25 }, version: 4, name: 'Cold Brew' });
  });

  it('leaves without a request when nothing changed', async () => {
    const { actor, updates } = start(async () => base);
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'SAVE' });
    expect(actor.getSnapshot().value).toBe('saved');
    expect(updates).not.toHaveBeenCalled();
  });

  it('shows what someone else changed, and reload takes their version', async () => {
    const theirs = { ...base, price: 6, threshold: 2, version: 6 };
    const { actor } = start(() =>
      Promise.reject(new ApiError('Item was changed by someone else', 409, { error: 'x', current: theirs })),
    );
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'CHANGE', field: 'name', value: 'Cold Brew Coffee' });
    actor.send({ type: 'SAVE' });
    await waitFor(actor, (s) => s.matches('conflict'));
    expect(actor.getSnapshot().context.conflict!.fields).toEqual(['price', 'threshold']);
    actor.send({ type: 'RELOAD' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.values.name).toBe('Cold Brew');
    expect(actor.getSnapshot().context.values.price).toBe('6.00');
    expect(actor.getSnapshot().context.original!.version).toBe(6);
  });

  it('overwrites with my values on top of the current version', async () => {
    const theirs = { ...base, price: 6, version: 6 };
    let first = true;
    const { actor, updates } = start(async ({ body }) => {
      if (first) {
        first = false;
        throw new ApiError('changed', 409, { error: 'changed', current: theirs });
      }
      return { ...theirs, ...body, version: 7 } as Item;
    });
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'CHANGE', field: 'name', value: 'Cold Brew Coffee' });
    actor.send({ type: 'SAVE' });
    await waitFor(actor, (s) => s.matches('conflict'));
    actor.send({ type: 'OVERWRITE' });
    await waitFor(actor, (s) => s.matches('saved'));
    expect(updates.mock.calls[1]![0]).toEqual({
      id: 'i1',
      body: { name: 'Cold Brew Coffee', price: 4.5 },
      version: 6,
      name: 'Cold Brew',
    });
  });

  it("shows the server's reason and re-enables the form when saving fails", async () => {
    const { actor } = start(() => Promise.reject(new ApiError('SKU FB-2 is already used', 400)));
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'CHANGE', field: 'sku', value: 'FB-2' });
    actor.send({ type: 'SAVE' });
    await waitFor(actor, (s) => s.matches('editing') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('SKU FB-2 is already used');
  });

  it('asks before deleting, and deletes with the loaded version', async () => {
    const { actor, removes } = start(async () => base);
    await waitFor(actor, (s) => s.matches('editing'));
    actor.send({ type: 'DELETE' });
    expect(actor.getSnapshot().value).toBe('confirmingDelete');
    actor.send({ type: 'CANCEL_DELETE' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(removes).not.toHaveBeenCalled();
    actor.send({ type: 'DELETE' });
    actor.send({ type: 'CONFIRM_DELETE' });
    await waitFor(actor, (s) => s.matches('deleted'));
    expect(removes).toHaveBeenCalledTimes(1);
  });

  it("goes to 'not found' for an unknown item", async () => {
    const actor = createActor(
      editItemMachine.provide({
        actors: { load: fromPromise(() => Promise.reject(new ApiError('Item not found', 404))) },
      }),
      { input: { id: 'nope' } },
    );
    actor.start();
    await waitFor(actor, (s) => s.matches('notFound'));
  });
});
