// Loads every scenario pack's section verifier, so whatever verifies a report (ejc verify, merge) checks its sections.
// Each import registers itself through registerSectionVerifier in reports/verify.ts.
import './s8e/section-verifier.js';
