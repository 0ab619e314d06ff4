// Registers the verifier of the report's `root-causes` section (recomputed from the scenarios it groups).
import { verifyRootCauses } from './root-causes.js';
import { registerSectionVerifier } from './verify.js';

registerSectionVerifier('root-causes', (section, report) => verifyRootCauses(section, report.scenarios));
