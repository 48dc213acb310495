/**
 * Which field of a result a formatter failed on: a file with spawnbench's header and a body
 * the schema does not pin down (an edited tune result's `plan.sizes` made null) fails deep in
 * a formatter with an internal TypeError ("Cannot read properties of null (reading 'join')").
 * The formatter is run again over a view of the result that records each field it reads; the
 * last one read before the same failure is named as where the report stopped (most often the
 * field at fault; a value carried further can fail later, so it is not called the culprit).
 */

/**
 * A field's value in words, for the one-line error.
 * @param {unknown} value
 */
export function describeValue(value) {
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return 'text';
  if (typeof value === 'object') return 'an object';
  return `${typeof value === 'number' ? 'a number' : typeof value} (${String(value)})`;
}

/**
 * Runs `format(result)` over a recording view of `result`; when it throws, returns the path
 * of the last field read and its value, else null.
 * @param {(result: object) => unknown} format
 * @param {object} result
 * @returns {{ path: string, value: unknown } | null}
 */
export function fieldReadLast(format, result) {
  /** @type {{ path: string, value: unknown } | null} */
  let last = null;
  /** @type {WeakMap<object, object>} */
  const views = new WeakMap();
  /**
   * @param {object} target
   * @param {string} path
   * @returns {object}
   */
  const view = (target, path) => {
    const seen = views.get(target);
    if (seen) return seen;
    const proxy = new Proxy(target, {
      get(object, key, receiver) {
        const value = Reflect.get(object, key, receiver);
        // Methods and other inherited names (a list's `map`) are not fields.
        if (typeof key !== 'string' || (!Object.hasOwn(object, key) && (value !== undefined || Array.isArray(object)))) return value;
        const at = Array.isArray(object) && /^\d+$/.test(key) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
        last = { path: at, value };
        return value && typeof value === 'object' ? view(value, at) : value;
      },
    });
    views.set(target, proxy);
    return proxy;
  };
  try {
    format(view(result, ''));
    return null;
  } catch {
    return last;
  }
}
