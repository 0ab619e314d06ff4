// Whether this machine has each dimension a run tests only with a tool (the table itself is shared/dimensions.ts).
import { straceAvailable } from './engine/syscall-sweep.js';
import { faketimeLibrary } from './explore/schedule.js';
import { confinement } from '../shared/confinement.js';
import { sqliteReader } from './secrets/sqlite-reader.js';
import type { DimensionId } from '../shared/dimensions.js';

export { DIMENSIONS, dimensionNamed, type Dimension, type DimensionId } from '../shared/dimensions.js';

/** Whether this machine has the dimension (each probe is cached by the module it lives in). */
export function dimensionAvailable(id: DimensionId): boolean {
  if (id === 'strace') return straceAvailable();
  if (id === 'clock') return faketimeLibrary() !== null;
  if (id === 'sqlite') return sqliteReader() !== null;
  return confinement() === 'pid-namespace';
}
