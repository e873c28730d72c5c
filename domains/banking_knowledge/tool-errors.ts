// Python exceptions raised inside a tool are the tool's refusals as the model sees them ("Error: <str(exc)>"),
// not bugs: each toolkit entry reports them as ToolErrors.
import { isPyError } from '../../src/core/py/index.ts';
import { ToolError } from '../../src/core/environment/errors.ts';
import type { ToolArgs, ToolSpec } from '../../src/core/environment/toolkit.ts';
import type { ToolServices } from '../../src/core/environment/tool-services.ts';

export const raisingToolErrors = <Db>(tools: Record<string, ToolSpec<Db>>): Record<string, ToolSpec<Db>> =>
  Object.fromEntries(
    Object.entries(tools).map(([name, spec]) => {
      const { prepare } = spec;
      const wrapped: ToolSpec<Db> = {
        ...spec,
        run: (db, args, prepared) => asToolError(() => spec.run(db, args, prepared)),
        ...(prepare ? { prepare: (db: Db, args: ToolArgs, services: ToolServices) => asToolError(() => prepare(db, args, services)) } : {}),
      };
      return [name, wrapped];
    }),
  );

/** What `run` returns, a Python exception it throws turned into a ToolError (also when a promise rejects with one). */
const asToolError = <T>(run: () => T): T => {
  const translate = (error: unknown): never => {
    if (isPyError(error)) throw new ToolError(error.message);
    throw error;
  };
  try {
    const result = run();
    return (result instanceof Promise ? result.catch(translate) : result) as T;
  } catch (error) {
    return translate(error);
  }
};
