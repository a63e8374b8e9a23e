// Toxiproxy's ApiError values (api.go): the exact messages and statuses clients match on.
import { DecodeError } from './json-decode.ts';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }

  toJSON(): { error: string; status: number } {
    return { error: this.message, status: this.status };
  }
}

export const errors = {
  badRequestBody: (detail: string) => new ApiError(`bad request body: ${detail}`, 400),
  missingField: (field: string) => new ApiError(`missing required field: ${field}`, 400),
  proxyNotFound: () => new ApiError('proxy not found', 404),
  proxyAlreadyExists: () => new ApiError('proxy already exists', 409),
  invalidStream: () => new ApiError('stream was invalid, can be either upstream or downstream', 400),
  invalidToxicType: () => new ApiError('invalid toxic type', 400),
  toxicAlreadyExists: () => new ApiError('toxic already exists', 409),
  toxicNotFound: () => new ApiError('toxic not found', 404),
};

/** Any other failure answers 500 with its message, as apiError does for errors without a status. */
export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  return new ApiError(error instanceof Error ? error.message : String(error), 500);
}

/** Runs a request-body decoder; a decoding problem becomes Toxiproxy's 400 `bad request body: …`. */
export function decoded<T>(decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (error instanceof DecodeError) throw errors.badRequestBody(error.message);
    throw error;
  }
}
