// Where the viewer's data comes from: the tau2-edge API (in the Worker, its own /v1 routes called in-process with
// the caller's session) or a local results file (`tau2-edge view FILE --web`). Pages read only through this.
import type { ApiClient } from '../client/index.ts';

export type ViewerReads = Pick<ApiClient, 'listRuns' | 'run' | 'results' | 'simulation' | 'dbDiff'>;
/** What a live API can do besides reading; absent for a results file. */
export type ViewerActions = Pick<ApiClient, 'createRun' | 'cancel' | 'listSchedules' | 'createSchedule' | 'updateSchedule' | 'deleteSchedule'>;

export interface ViewerSource extends ViewerReads {
  readonly actions: ViewerActions | null;
  /** The run's live event stream (a URL the browser opens), or null when the source does not change. */
  eventsUrl(runId: string): string | null;
}
