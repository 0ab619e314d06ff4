// The author's prepare: look the identity up first, under the write lock so no writer slips in while it decides (a
// BEGIN IMMEDIATE of its own, committed at once), then write the new row in a second BEGIN IMMEDIATE.
import { writeTransaction } from '../../../../dist/reference-impl/sqlite.js';
import { prepareLookingUp } from './prepare-check-first.mjs';

export function prepareEffect(ctx, req) {
    return prepareLookingUp(writeTransaction, ctx, req);
}
