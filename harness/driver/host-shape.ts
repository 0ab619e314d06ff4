// A tiny structural validator for the host driver: checks a value against a shape and names the first bad field.
// The host loads this instead of zod (zod is a third of a driver's start-up); test/harness/host-codec.test.ts
// proves every shape here equals the zod schema it stands for.

/** One node of a shape: the subset of JSON Schema the protocol's request params use. */
export type Shape =
  | { readonly t: 'string'; readonly min?: number }
  | { readonly t: 'int'; readonly min?: number }
  | { readonly t: 'boolean' }
  | { readonly t: 'enum'; readonly values: readonly (string | number)[] }
  | { readonly t: 'array'; readonly item: Shape }
  | { readonly t: 'record'; readonly value: Shape }
  | { readonly t: 'object'; readonly props: Readonly<Record<string, Shape>>; readonly optional: readonly string[] }
  | { readonly t: 'union'; readonly key: string; readonly options: Readonly<Record<string, Shape>> }
  | { readonly t: 'nullable'; readonly inner: Shape }
  | { readonly t: 'json' };

/** The first problem found: the field's path (`params.scope.runId`) and what is wrong with it. */
export interface ShapeIssue {
  readonly path: string;
  readonly message: string;
}

/** Checks `value` against `shape`; null when it conforms. Unknown object keys are allowed, as zod's default objects allow them. */
export function checkShape(shape: Shape, value: unknown, path: string): ShapeIssue | null {
  switch (shape.t) {
    case 'string':
      if (typeof value !== 'string') return issue(path, 'must be a string', value);
      return shape.min !== undefined && value.length < shape.min ? { path, message: `must have at least ${shape.min} character(s)` } : null;
    case 'int':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) return issue(path, 'must be an integer', value);
      return shape.min !== undefined && value < shape.min ? { path, message: `must be >= ${shape.min}, got ${value}` } : null;
    case 'boolean':
      return typeof value === 'boolean' ? null : issue(path, 'must be a boolean', value);
    case 'enum':
      return shape.values.includes(value as string | number) ? null : issue(path, `must be one of ${shape.values.map((v) => JSON.stringify(v)).join(', ')}`, value);
    case 'array':
      if (!Array.isArray(value)) return issue(path, 'must be an array', value);
      for (let i = 0; i < value.length; i++) {
        const found = checkShape(shape.item, value[i], `${path}[${i}]`);
        if (found !== null) return found;
      }
      return null;
    case 'record':
      if (!isPlainObject(value)) return issue(path, 'must be an object', value);
      for (const key of Object.keys(value)) {
        const found = checkShape(shape.value, value[key], join(path, key));
        if (found !== null) return found;
      }
      return null;
    case 'object':
      return checkObject(shape, value, path);
    case 'union': {
      if (!isPlainObject(value)) return issue(path, 'must be an object', value);
      const option = Object.hasOwn(shape.options, value[shape.key] as string) ? shape.options[value[shape.key] as string] : undefined;
      if (option === undefined) {
        return issue(join(path, shape.key), `must be one of ${Object.keys(shape.options).map((k) => JSON.stringify(k)).join(', ')}`, value[shape.key]);
      }
      return checkShape(option, value, path);
    }
    case 'nullable':
      return value === null ? null : checkShape(shape.inner, value, path);
    case 'json':
      return isJson(value) ? null : { path, message: 'must be a JSON value' };
  }
}

function checkObject(shape: Extract<Shape, { t: 'object' }>, value: unknown, path: string): ShapeIssue | null {
  if (!isPlainObject(value)) return issue(path, 'must be an object', value);
  for (const [key, child] of Object.entries(shape.props)) {
    const member = Object.hasOwn(value, key) ? value[key] : undefined;
    if (member === undefined) {
      if (shape.optional.includes(key)) continue;
      return { path: join(path, key), message: 'is required' };
    }
    const found = checkShape(child, member, join(path, key));
    if (found !== null) return found;
  }
  return null;
}

function isJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJson);
  return isPlainObject(value) && Object.values(value).every(isJson);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function issue(path: string, message: string, got: unknown): ShapeIssue {
  const kind = got === null ? 'null' : Array.isArray(got) ? 'array' : typeof got;
  return { path, message: `${message}, got ${kind === 'undefined' ? 'nothing' : kind}` };
}
