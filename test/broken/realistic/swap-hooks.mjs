// Module resolution hooks: a realistic journal's own version of one reference module replaces the reference's, for the reference only.
let swaps = {};

export function initialize(data) {
  swaps = data.swaps;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  for (const [original, replacement] of Object.entries(swaps)) {
    // The replacement may import the original itself; only the reference's own imports are redirected.
    if (resolved.url.endsWith(original) && context.parentURL !== replacement) return { url: replacement, shortCircuit: true };
  }
  return resolved;
}
