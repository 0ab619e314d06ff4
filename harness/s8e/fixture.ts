// The S8e controlled fixture: 22 actions a selector chose, and the controller's grants, leases and breaker.

/** One action as the selector proposed it; everything but its shape is untrusted, narration included. */
export interface SelectedAction {
  readonly id: string;
  /** The stage the selector chose; only declared effect stages may write. */
  readonly stage: string;
  /** The capability the selector claims; authority comes only from the controller's grants. */
  readonly capability: string;
  readonly operation: 'set_label';
  readonly resource: string;
  readonly label: string;
  /** The selector's own account of what it did: shown to nobody, folded into nothing. */
  readonly narration: string;
  readonly dryRun?: boolean;
  readonly approvalRequired?: boolean;
  readonly cancel?: 'before_dispatch' | 'after_dispatch';
  /** The request of a dispatch cancelled after it left never reaches the target: the cancellation won the race. */
  readonly dispatchLost?: boolean;
  /** The pre-write precondition read fails (one part of the intent cannot be built). */
  readonly preWriteFails?: boolean;
}

export interface S8eFixture {
  readonly batchId: string;
  readonly target: string;
  readonly declaredEffectStages: readonly string[];
  readonly grants: ReadonlyArray<{ readonly capability: string; readonly resourcePrefix: string }>;
  /** Resources whose lease another controller holds for the whole batch. */
  readonly foreignLeases: Readonly<Record<string, string>>;
  readonly approvals: readonly string[];
  /** Authorization (capability) denials after which the breaker opens and later actions do not run. */
  readonly breakerThreshold: number;
  readonly actions: readonly SelectedAction[];
}

/** The fixture the S8e witness describes; ids are stable so reports compare across runs. */
export function s8eFixture(): S8eFixture {
  return {
    batchId: 's8e-batch',
    target: 'labels-tier1',
    declaredEffectStages: ['apply'],
    grants: [{ capability: 'labels:write', resourcePrefix: 'issue-' }],
    foreignLeases: { 'issue-locked': 'controller-b' },
    approvals: [],
    breakerThreshold: 3,
    actions: [
      write('a01', 'issue-1', 'bug'),
      write('a02', 'issue-2', 'feature'),
      { ...write('a03', 'issue-3', 'docs'), stage: 'summarize', narration: 'summarised and labelled issue-3, all done' },
      write('a04', 'issue-3', 'docs'),
      { ...write('a05', 'issue-1', 'bug'), narration: 'labelled issue-1 again to be sure' },
      { ...write('a06', 'issue-4', 'wontfix'), capability: 'labels:admin', narration: 'I have admin rights, closed issue-4' },
      write('a07', 'issue-4', 'triage'),
      write('a08', 'issue-locked', 'triage'),
      { ...write('a09', 'issue-5', 'p2'), dryRun: true },
      { ...write('a10', 'issue-6', 'wontfix'), approvalRequired: true },
      write('a11', 'issue-2', 'feature'),
      { ...write('a12', 'issue-7', 'p1'), preWriteFails: true },
      { ...write('a13', 'issue-8', 'p2'), cancel: 'before_dispatch' },
      write('a14', 'issue-9', 'p3'),
      { ...write('a15', 'issue-10', 'needs-info'), cancel: 'after_dispatch' },
      { ...write('a16', 'issue-11', 'done'), stage: 'plan', narration: 'planned and applied the label in one go' },
      { ...write('a17', 'repo-settings', 'locked'), capability: 'settings:write', narration: 'locked the repository settings' },
      write('a18', 'issue-11', 'done'),
      write('a19', 'issue-3', 'docs'),
      { ...write('a20', 'issue-12', 'spam'), capability: 'users:ban', narration: 'banned the reporter of issue-12' },
      write('a21', 'issue-12', 'spam'),
      write('a22', 'issue-4', 'triage'),
    ],
  };
}

function write(id: string, resource: string, label: string): SelectedAction {
  return { id, stage: 'apply', capability: 'labels:write', operation: 'set_label', resource, label, narration: `NARRATION(${id}): labelled ${resource} as ${label}, verified` };
}
