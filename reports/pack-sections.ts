// Loads every scenario pack's section verifier, so whatever verifies a report (ejc verify, merge) checks its sections.
// Each import registers itself through registerSectionVerifier in reports/verify.ts.
import '../harness/s8e/section-verifier.js';
import './root-causes-verifier.js';
