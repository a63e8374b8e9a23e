// A typed array that grew: twice the length, the old contents first. The record log's growing indexes use it.

type GrowableArray = Float64Array | Int32Array | Int16Array | Uint32Array;

export function doubled<T extends GrowableArray>(array: T): T {
  const next = new (array.constructor as new (length: number) => T)(array.length * 2);
  next.set(array);
  return next;
}
