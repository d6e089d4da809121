// The Add Item wizard machine: Next/Back/Cancel between its three steps, a validation
// message per problem on Submit (sending the user to the step with the problem), values
// converted for the API, and a failed create that keeps every input.
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { CreateItemBody, Item } from '../../shared/inventory.js';
import { addItemWizardMachine, wizardStep } from '../../client/features/inventory/add-item-wizard.machine.js';
import {
  firstProblem,
  toCreateBody,
  EMPTY_DRAFT,
  STEP_OF,
  type DraftField,
} from '../../client/features/inventory/item-draft.js';

function start(
  create: (body: CreateItemBody) => Promise<Item> = async (body) => ({ id: 'new', name: body.name }) as Item,
) {
  const createItem = vi.fn(create);
  const actor = createActor(
    addItemWizardMachine.provide({
      actors: { createItem: fromPromise(({ input }: { input: CreateItemBody }) => createItem(input)) },
      actions: { notifyFailure: () => undefined },
    }),
    { input: { categoryIds: ['c1', 'c2'] } },
  );
  actor.start();
  const fill = (values: Partial<Record<DraftField, string>>) => {
    for (const [field, value] of Object.entries(values))
      actor.send({ type: 'CHANGE', field: field as DraftField, value: value! });
  };
  return { actor, createItem, fill };
}

const complete = { name: 'Cold Brew', sku: 'FB-1', categoryId: 'c1', price: '4.5', quantity: '12', threshold: '3' };

describe('add item wizard', () => {
  it('moves forward with Next and back with Back; the third step submits', () => {
    const { actor } = start();
    expect(wizardStep(actor.getSnapshot().value)).toBe(1);
    actor.send({ type: 'BACK' });
    expect(wizardStep(actor.getSnapshot().value)).toBe(1);
    actor.send({ type: 'NEXT' });
    actor.send({ type: 'NEXT' });
    expect(wizardStep(actor.getSnapshot().value)).toBe(3);
    actor.send({ type: 'NEXT' });
    expect(wizardStep(actor.getSnapshot().value)).toBe(3);
    actor.send({ type: 'BACK' });
    expect(wizardStep(actor.getSnapshot().value)).toBe(2);
  });

  it('closes on Cancel from the first step', () => {
    const { actor } = start();
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().status).toBe('done');
    expect(actor.getSnapshot().output).toEqual({ item: null });
  });

  it("sends Submit with a missing field to that field's step with 'Please fill in all required fields'", () => {
    const { actor, createItem, fill } = start();
    fill({ ...complete, sku: '' });
    actor.send({ type: 'NEXT' });
    actor.send({ type: 'NEXT' });
    actor.send({ type: 'SUBMIT' });
    expect(wizardStep(actor.getSnapshot().value)).toBe(1);
    expect(actor.getSnapshot().context.error).toBe('Please fill in all required fields');
    expect(actor.getSnapshot().context.invalidField).toBe('sku');
    expect(createItem).not.toHaveBeenCalled();
  });

  it("rejects a category that no longer exists with 'Please fill in all required fields including category'", () => {
    const { actor, fill } = start();
    fill({ ...complete, categoryId: 'gone' });
    actor.send({ type: 'NEXT' });
    actor.send({ type: 'NEXT' });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().context.error).toBe('Please fill in all required fields including category');
  });

  it('creates the item with numbers converted, and ends with it', async () => {
    const { actor, createItem, fill } = start();
    fill({
      ...complete,
      description: ' Ready to drink ',
      expiryDate: '2030-06-30',
      imageUrl: '',
      barcode: ' 4006381333931 ',
    });
    actor.send({ type: 'NEXT' });
    actor.send({ type: 'NEXT' });
    actor.send({ type: 'SUBMIT' });
    expect(actor.getSnapshot().value).toBe('submitting');
    await waitFor(actor, (s) => s.status === 'done');
    expect(createItem).toHaveBeenCalledWith({
      name: 'Cold Brew',
      description: 'Ready to drink',
      sku: 'FB-1',
      category_id: 'c1',
      quantity: 12,
      price: 4.5,
      threshold: 3,
      image_url: null,
      expiry_date: '2030-06-30',
      barcode: '4006381333931',
    });
    expect(actor.getSnapshot().output?.item?.id).toBe('new');
  });

  it('keeps the input and says why when the server refuses', async () => {
    const { actor, fill } = start(() => Promise.reject(new Error('SKU FB-1 is already used by "Tea"')));
    fill(complete);
    actor.send({ type: 'NEXT' });
    actor.send({ type: 'NEXT' });
    actor.send({ type: 'SUBMIT' });
    await waitFor(actor, (s) => s.matches('step3') && s.context.error !== null);
    expect(actor.getSnapshot().context.error).toBe('Failed to add inventory item: SKU FB-1 is already used by "Tea"');
    expect(actor.getSnapshot().context.values.name).toBe('Cold Brew');
  });
});

describe('item draft rules', () => {
  const ids = ['c1'];
  it('checks numbers, URL and date formats after the required fields', () => {
    expect(firstProblem({ ...EMPTY_DRAFT, ...complete }, ids)).toBeNull();
    expect(firstProblem({ ...EMPTY_DRAFT, ...complete, price: '-1' }, ids)?.field).toBe('price');
    expect(firstProblem({ ...EMPTY_DRAFT, ...complete, price: '1.999' }, ids)?.field).toBe('price');
    expect(firstProblem({ ...EMPTY_DRAFT, ...complete, quantity: '2.5' }, ids)?.field).toBe('quantity');
    expect(firstProblem({ ...EMPTY_DRAFT, ...complete, threshold: 'x' }, ids)?.field).toBe('threshold');
    expect(firstProblem({ ...EMPTY_DRAFT, ...complete, imageUrl: 'not a url' }, ids)?.message).toBe(
      'Image URL must be a valid URL',
    );
    // Pictures only over https: the form says so before the server would.
    expect(
      firstProblem({ ...EMPTY_DRAFT, ...complete, imageUrl: 'http://tracker.example/pixel.gif' }, ids)?.message,
    ).toBe('Image URL must start with https://');
    expect(firstProblem({ ...EMPTY_DRAFT, ...complete, imageUrl: 'https://images.example/stand.png' }, ids)).toBeNull();
    expect(firstProblem({ ...EMPTY_DRAFT, ...complete, expiryDate: '2030-02-30' }, ids)?.field).toBe('expiryDate');
  });

  it('checks a barcode with the shared check and shows its message; an empty one is no barcode', () => {
    expect(firstProblem({ ...EMPTY_DRAFT, ...complete, barcode: '4006381333932' }, ids)).toEqual({
      field: 'barcode',
      message: 'Barcode check digit is wrong (EAN-13, expected 1)',
    });
    expect(firstProblem({ ...EMPTY_DRAFT, ...complete, barcode: 'SHELF-7' }, ids)).toBeNull();
    expect(toCreateBody({ ...EMPTY_DRAFT, ...complete, barcode: '  ' }).barcode).toBeNull();
    expect(STEP_OF.barcode).toBe(1);
  });

  it('rounds prices to cents', () => {
    expect(toCreateBody({ ...EMPTY_DRAFT, ...complete, price: '0.1' }).price).toBe(0.1);
    expect(toCreateBody({ ...EMPTY_DRAFT, ...complete, price: '19.99' }).price).toBe(19.99);
  });
});
