// What a kill inside an operation may have left: nothing, the whole operation, or either (never a part of it).

/** The durable effect of an operation the driver was killed inside. */
export type KillEffect = 'none' | 'durable' | 'either';

/**
 * From where the kill happened: an announced `…before-commit` (or between sweep chunks, or before a checkpoint) left
 * nothing, an announced `…after-commit` left the whole operation, and any other point or a syscall left one or the other.
 */
export function killEffect(at: string): KillEffect {
  if (!at.startsWith('point:')) return 'either';
  const point = at.slice('point:'.length);
  if (/(^|[.-])before-commit$/.test(point) || point.endsWith('between-chunks') || point.endsWith('.before')) return 'none';
  if (/(^|[.-])after-commit$/.test(point)) return 'durable';
  return 'either';
}
