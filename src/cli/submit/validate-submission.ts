// `submit validate DIR`: a prepared submission folder checked as the reference checks it (reference:
// validate_submission in src/tau2/scripts/leaderboard/prepare_submission.py). Like the reference, a refusal
// before the trajectory checks and metric warnings are reported with exit 0; a failed trajectory check exits 1.
import { metricsWarnings, validateTrajectorySet } from '../../core/submission/validate-submission.ts';
import { loadSubmissionDir } from './submission-dir.ts';
import { verifyTrajectories } from './verify-trajectories.ts';

type Out = (line: string) => void;

export const validateSubmission = async (dir: string, out: Out): Promise<number> => {
  out('🔍 Validating submission...');
  out(`📂 Submission directory: ${dir}`);
  out('📋 Loading submission data...');
  const loaded = await loadSubmissionDir(dir, out);
  if (!loaded.ok) {
    out(`❌ Submission validation failed: ${loaded.error}`);
    return 0;
  }
  out('✅ Submission data loaded successfully!');
  out('📋 Validating submission trajectory set...');
  const { submission, trajectoryFiles, results } = loaded.data;
  const set = validateTrajectorySet(results);
  if (!set.ok) {
    out(`❌ Submission trajectory set validation failed: ${set.error}`);
    return 0;
  }
  if ((await verifyTrajectories(trajectoryFiles, out)) !== 0) return 1;
  out('✅ Submission validation successful!');
  out('📋 Validating submission metrics...');
  const warnings = metricsWarnings(submission, results);
  if (warnings.length === 0) out('✅ Submission metrics validation successful!');
  else {
    out(`❌ ${warnings.length} warning(s) found`);
    for (const warning of warnings) out(`  • ${warning}`);
  }
  return 0;
};
