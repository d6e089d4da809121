// Category decisions: pure functions from (command, current state) to events.
import type { CategoryEvent, CategoryFields, Changes } from '../../shared/inventory-events.js';
import { ConflictError, NotFoundError, ValidationError } from '../errors.js';

export interface CategoryState extends CategoryFields {
  id: string;
  version: number;
  itemCount: number;
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new ValidationError('name is required', 'name');
  return trimmed;
}

export function createCategory(command: { categoryId: string } & CategoryFields): CategoryEvent[] {
  return [
    {
      type: 'CategoryCreated',
      data: { categoryId: command.categoryId, name: checkName(command.name), description: command.description.trim() },
    },
  ];
}

export function updateCategory(command: Partial<CategoryFields>, state: CategoryState | null): CategoryEvent[] {
  if (!state) throw new NotFoundError('Category not found');
  const changes: Changes<CategoryFields> = {};
  if (command.name !== undefined) {
    const name = checkName(command.name);
    if (name !== state.name) changes.name = { from: state.name, to: name };
  }
  if (command.description !== undefined) {
    const description = command.description.trim();
    if (description !== state.description) changes.description = { from: state.description, to: description };
  }
  return Object.keys(changes).length ? [{ type: 'CategoryUpdated', data: { changes } }] : [];
}

export function deleteCategory(state: CategoryState | null): CategoryEvent[] {
  if (!state) throw new NotFoundError('Category not found');
  if (state.itemCount > 0) throw new ConflictError('Category is not empty');
  return [{ type: 'CategoryDeleted', data: { name: state.name } }];
}
