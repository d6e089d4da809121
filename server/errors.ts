// One error type for everything a request can get wrong. The single error handler in
// app.ts turns a DomainError into `{ "error": message }` with its status.
export class DomainError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    /** Extra fields for the response body (for example the current item on a conflict). */
    readonly body?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends DomainError {
  /**
   * `field`: the body field the message is about (snake_case, as sent), answered as
   * `{ error, field }` so a form can show the message at that input.
   */
  constructor(message: string, field?: string) {
    super(message, 400, 'validation', field ? { field } : undefined);
  }
}
export class UnauthorizedError extends DomainError {
  constructor(message = 'Authentication required') {
    super(message, 401, 'unauthorized');
  }
}
export class ForbiddenError extends DomainError {
  constructor(message: string) {
    super(message, 403, 'forbidden');
  }
}
export class NotFoundError extends DomainError {
  constructor(message: string) {
    super(message, 404, 'not_found');
  }
}
export class ConflictError extends DomainError {
  constructor(message: string, body?: Record<string, unknown>) {
    super(message, 409, 'conflict', body);
  }
}
export class PayloadTooLargeError extends DomainError {
  constructor(message: string) {
    super(message, 413, 'too_large');
  }
}
export class UnprocessableError extends DomainError {
  /** `field`: the body field the message is about, as ValidationError's. */
  constructor(message: string, field?: string) {
    super(message, 422, 'unprocessable', field ? { field } : undefined);
  }
}
