// Python exceptions raised inside a tool are the tool's refusals as the model sees them ("Error: <str(exc)>"),
// not bugs: each toolkit entry reports them as ToolErrors.
import { isPyError } from '../../src/core/py/index.ts';
import { ToolError } from '../../src/core/environment/errors.ts';
import type { ToolSpec } from '../../src/core/environment/toolkit.ts';

export const raisingToolErrors = <Db>(tools: Record<string, ToolSpec<Db>>): Record<string, ToolSpec<Db>> =>
  Object.fromEntries(
    Object.entries(tools).map(([name, spec]) => [
      name,
      {
        ...spec,
        run: (db: Db, args: Parameters<ToolSpec<Db>['run']>[1]) => {
          try {
            return spec.run(db, args);
          } catch (error) {
            if (isPyError(error)) throw new ToolError(error.message);
            throw error;
          }
        },
      },
    ]),
  );
