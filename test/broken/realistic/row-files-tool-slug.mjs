// row-files-journal naming a row's file after its tool as a slug: MCP tool ids carry '/', ':' and capitals
// ("github/Create_Issue"), which a file name cannot hold or a case-insensitive disk would fold, so the author folds
// them first: lower case, every run of other characters one '-'. Two tools whose ids differ only in case or
// punctuation then share one identity (§2: the tool is part of EffectIdentity): a re-run whose model called
// write-file at the slot where write_file committed is answered with write_file's recorded result.
import { createBlind3Files } from './row-files-journal.mjs';

export function createJournal(context) {
  return createBlind3Files(context, { toolName: (toolId) => toolId.toLowerCase().replace(/[^a-z0-9]+/g, '-') }, 'row-files-tool-slug');
}
