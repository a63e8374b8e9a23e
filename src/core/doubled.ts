// A typed array that grew: twice the length, the old contents first. Every growing column (the record log's
// indexes, the metric families' op spans) grows through it.

type GrowableArray = Float64Array | Int32Array | Int16Array | Uint32Array | Uint8Array;

export function doubled<T extends GrowableArray>(array: T): T {
  const next = new (array.constructor as new (length: number) => T)(array.length * 2);
  next.set(array);
  return next;
}
